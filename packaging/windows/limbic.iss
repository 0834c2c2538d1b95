; Inno Setup 6 script: a Windows installer for the PyInstaller one-folder bundle in dist\limbic.
; Build from the repository root, after PyInstaller, with the Microsoft Visual C++ redistributable
; downloaded to build\vc_redist.x64.exe (https://aka.ms/vs/17/release/vc_redist.x64.exe):
;   iscc /DAppVersion=0.1.0 packaging\windows\limbic.iss
; Output: dist\limbic-<version>-windows-x64-setup.exe. Installs for all users by default into
; C:\Program Files\Limbic (the path an assistant's configuration names: C:\Program Files\Limbic\limbic-cli.exe);
; the dialog, or /CURRENTUSER, installs for one user into %LOCALAPPDATA%\Programs\Limbic without an
; administrator. Uninstall from Settings > Apps; the user's graph file is kept.

#ifndef AppVersion
  #define AppVersion "0.0.0"
#endif
#define Bundle AddBackslash(SourcePath) + "..\..\dist\limbic"
#define IconFile AddBackslash(SourcePath) + "..\..\build\icons\limbic.ico"
; onnxruntime (and Python's extension modules) need the Visual C++ 2015-2022 runtime, version 14.40 or
; later; the installer runs Microsoft's redistributable when the machine has an older one or none.
#define VCRedist AddBackslash(SourcePath) + "..\..\build\vc_redist.x64.exe"

#if !FileExists(Bundle + "\limbic-cli.exe")
  #error dist\limbic\limbic-cli.exe is missing: build the bundle with PyInstaller first (packaging\limbic.spec).
#endif
#if !FileExists(VCRedist)
  #error build\vc_redist.x64.exe is missing: download https://aka.ms/vs/17/release/vc_redist.x64.exe there first.
#endif

[Setup]
AppId={{221FD8CF-CB77-45D1-A19E-219D98BBC7BC}
AppName=Limbic
AppVersion={#AppVersion}
AppVerName=Limbic {#AppVersion}
AppPublisher=Limbic
AppComments=A personal knowledge graph with local hybrid search
DefaultDirName={autopf}\Limbic
DefaultGroupName=Limbic
DisableProgramGroupPage=yes
PrivilegesRequired=admin
PrivilegesRequiredOverridesAllowed=commandline dialog
ArchitecturesAllowed=x64compatible
ArchitecturesInstallIn64BitMode=x64compatible
MinVersion=10.0
OutputDir=..\..\dist
OutputBaseFilename=limbic-{#AppVersion}-windows-x64-setup
Compression=lzma2/max
SolidCompression=yes
WizardStyle=modern
UninstallDisplayIcon={app}\limbic.exe
UninstallDisplayName=Limbic
#if FileExists(IconFile)
SetupIconFile={#IconFile}
#endif

[Tasks]
Name: "desktopicon"; Description: "{cm:CreateDesktopIcon}"; GroupDescription: "{cm:AdditionalIcons}"; Flags: unchecked

[Files]
; limbic.exe is the windowed app, limbic-cli.exe the same program for a terminal and for assistants.
Source: "{#Bundle}\*"; DestDir: "{app}"; Flags: ignoreversion recursesubdirs createallsubdirs
Source: "{#VCRedist}"; DestDir: "{tmp}"; Flags: deleteafterinstall; Check: VCRuntimeNeeded

[Icons]
Name: "{autoprograms}\Limbic"; Filename: "{app}\limbic.exe"
Name: "{autodesktop}\Limbic"; Filename: "{app}\limbic.exe"; Tasks: desktopicon

[Run]
; The runtime, before anything starts the app: silently when installing for all users (the installer is
; already elevated); for one user, with Microsoft's own progress window, which asks for an administrator.
Filename: "{tmp}\vc_redist.x64.exe"; Parameters: "/install /quiet /norestart"; StatusMsg: "Installing the Microsoft Visual C++ runtime..."; Check: VCRuntimeNeededForAllUsers; Flags: waituntilterminated
Filename: "{tmp}\vc_redist.x64.exe"; Parameters: "/install /passive /norestart"; StatusMsg: "Installing the Microsoft Visual C++ runtime..."; Check: VCRuntimeNeededForOneUser; Flags: waituntilterminated shellexec
Filename: "{app}\limbic.exe"; Description: "{cm:LaunchProgram,Limbic}"; Flags: nowait postinstall skipifsilent

[Code]
const
  VCRuntimeKey = 'SOFTWARE\Microsoft\VisualStudio\14.0\VC\Runtimes\x64';
  VCRuntimeMinimumMinor = 40;

{ Whether the registry view holds an installed x64 Visual C++ 14 runtime of version 14.40 or later. }
function VCRuntimeIn(RootKey: Integer): Boolean;
var
  Installed, Major, Minor: Cardinal;
begin
  Installed := 0;
  Major := 0;
  Minor := 0;
  Result := False;
  if RegQueryDWordValue(RootKey, VCRuntimeKey, 'Installed', Installed) and (Installed = 1) then
    if RegQueryDWordValue(RootKey, VCRuntimeKey, 'Major', Major) and RegQueryDWordValue(RootKey, VCRuntimeKey, 'Minor', Minor) then
      Result := (Major > 14) or ((Major = 14) and (Minor >= VCRuntimeMinimumMinor));
end;

function VCRuntimeNeeded: Boolean;
begin
  Result := not (VCRuntimeIn(HKLM32) or VCRuntimeIn(HKLM64));
end;

function VCRuntimeNeededForAllUsers: Boolean;
begin
  Result := IsAdminInstallMode and VCRuntimeNeeded;
end;

function VCRuntimeNeededForOneUser: Boolean;
begin
  Result := (not IsAdminInstallMode) and VCRuntimeNeeded;
end;
