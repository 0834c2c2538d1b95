#!/usr/bin/env bash
# macOS: build dist/Limbic.app with PyInstaller, smoke-test it, and wrap it in a compressed .dmg
# (dist/limbic-<version>-macos-<arch>.dmg) with a link to /Applications. Run from anywhere on a Mac
# with the project installed (pip install -e '.[package]') and the default model built
# (python packaging/models/build_default_model.py, or make setup).
#
# Signing: with LIMBIC_CODESIGN_IDENTITY naming a "Developer ID Application" certificate in the
# keychain, every binary, the app and the .dmg are signed with it and the hardened runtime (notarize the
# .dmg afterwards: xcrun notarytool submit ... --wait; xcrun stapler staple). Without it the app is
# ad-hoc signed, and macOS 15 and later open it only after System Settings > Privacy & Security >
# Open Anyway (docs/packaging.md).
set -euo pipefail
cd "$(dirname "$0")/../.."
PY=${PY:-python3}
VERSION=$(sed -n 's/^version *= *"\(.*\)"/\1/p' pyproject.toml)
ARCH=$(uname -m)
IDENTITY=${LIMBIC_CODESIGN_IDENTITY:-}

# The app icon: an .icns made from the 512 px PNG with the system's sips and iconutil.
ICONSET=build/icons/limbic.iconset
rm -rf "$ICONSET" && mkdir -p "$ICONSET"
for size in 16 32 128 256 512; do
  sips -z "$size" "$size" resources/icons/limbic-512.png --out "$ICONSET/icon_${size}x${size}.png" >/dev/null
  double=$((size * 2))
  sips -z "$double" "$double" resources/icons/limbic-512.png --out "$ICONSET/icon_${size}x${size}@2x.png" >/dev/null
done
iconutil -c icns "$ICONSET" -o build/icons/limbic.icns

rm -rf build/pyinstaller dist/limbic dist/Limbic.app
"$PY" -m PyInstaller --noconfirm --log-level WARN --distpath dist --workpath build/pyinstaller packaging/limbic.spec

# What the app declares: the package's version and the oldest macOS its wheels run on.
PLIST=dist/Limbic.app/Contents/Info.plist
echo "Limbic.app $(/usr/libexec/PlistBuddy -c 'Print :CFBundleShortVersionString' "$PLIST"), macOS $(/usr/libexec/PlistBuddy -c 'Print :LSMinimumSystemVersion' "$PLIST") or later"
test "$(/usr/libexec/PlistBuddy -c 'Print :CFBundleShortVersionString' "$PLIST")" = "$VERSION"
if [ -n "$IDENTITY" ]; then
  codesign --verify --deep --strict --verbose=2 dist/Limbic.app
fi

# The bundled app must pass the smoke check from another folder before it is shipped.
(cd "${TMPDIR:-/tmp}" && "$OLDPWD/dist/Limbic.app/Contents/MacOS/limbic" --smoke)

STAGE=build/dmg
rm -rf "$STAGE" && mkdir -p "$STAGE"
cp -R dist/Limbic.app "$STAGE/"
ln -s /Applications "$STAGE/Applications"
DMG="dist/limbic-${VERSION}-macos-${ARCH}.dmg"
rm -f "$DMG"
hdiutil create -volname "Limbic ${VERSION}" -srcfolder "$STAGE" -fs HFS+ -format UDZO -ov "$DMG"
if [ -n "$IDENTITY" ]; then
  codesign --force --timestamp --sign "$IDENTITY" "$DMG"
fi
echo "$DMG"
