; Inno Setup 6 script: a Windows installer for the PyInstaller one-folder bundle in dist\limbic.
; Build from the repository root, after PyInstaller:
;   iscc /DAppVersion=0.1.0 packaging\windows\limbic.iss
; Output: dist\limbic-<version>-windows-x64-setup.exe. Installs per user by default (no UAC prompt);
; the dialog offers all users. Uninstall from Settings > Apps; the user's graph file is kept.

#ifndef AppVersion
  #define AppVersion "0.0.0"
#endif
#define Bundle AddBackslash(SourcePath) + "..\..\dist\limbic"
#define IconFile AddBackslash(SourcePath) + "..\..\build\icons\limbic.ico"

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
PrivilegesRequired=lowest
PrivilegesRequiredOverridesAllowed=dialog
ArchitecturesAllowed=x64compatible
ArchitecturesInstallIn64BitMode=x64compatible
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
; limbic.exe is the windowed app, limbic-cli.exe the same program for a terminal.
Source: "{#Bundle}\*"; DestDir: "{app}"; Flags: ignoreversion recursesubdirs createallsubdirs

[Icons]
Name: "{autoprograms}\Limbic"; Filename: "{app}\limbic.exe"
Name: "{autodesktop}\Limbic"; Filename: "{app}\limbic.exe"; Tasks: desktopicon

[Run]
Filename: "{app}\limbic.exe"; Description: "{cm:LaunchProgram,Limbic}"; Flags: nowait postinstall skipifsilent
