"""The release archive of one platform's irilint binary, taken from that platform's wheel.

    python archive_binary.py WHEEL TARGET OUT_DIR

The wheel (maturin, `bindings = "bin"`) carries the binary as `irilint-X.Y.Z.data/scripts/irilint`
(`irilint.exe` on Windows): the binary the wheel's audit accepted (manylinux on Linux), so the
release binaries are the wheels' and each platform is built once. Writes
`irilint-TARGET.tar.gz` (`irilint-TARGET.zip` for a Windows target), holding the binary alone at
its top, and `irilint-TARGET.tar.gz.sha256` (`sha256sum -c` format), the names the cargo binstall
metadata of Cargo.toml and action.yml expect. Prints the two file names.
Used by .github/workflows/release.yml, and by tests/wheel.rs on the wheel it builds.
"""

import hashlib
import io
import sys
import tarfile
import time
import zipfile
from pathlib import Path


def main(wheel: str, target: str, out_dir: str) -> None:
    windows = "windows" in target
    exe = "irilint.exe" if windows else "irilint"
    with zipfile.ZipFile(wheel) as whl:
        members = [
            m for m in whl.infolist()
            if m.filename.endswith(f".data/scripts/{exe}") and m.filename.count("/") == 2
        ]
        if len(members) != 1:
            sys.exit(f"{wheel}: expected one {exe} under *.data/scripts/, found {len(members)}")
        member = members[0]
        binary = whl.read(member)
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    mtime = time.mktime(member.date_time + (0, 0, -1))
    if windows:
        archive = out / f"irilint-{target}.zip"
        with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as z:
            info = zipfile.ZipInfo(exe, member.date_time)
            info.external_attr = 0o755 << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(info, binary)
    else:
        archive = out / f"irilint-{target}.tar.gz"
        with tarfile.open(archive, "w:gz") as tar:
            info = tarfile.TarInfo(exe)
            info.size = len(binary)
            info.mode = 0o755
            info.mtime = int(mtime)
            tar.addfile(info, io.BytesIO(binary))
    digest = hashlib.sha256(archive.read_bytes()).hexdigest()
    checksum = out / f"{archive.name}.sha256"
    checksum.write_text(f"{digest}  {archive.name}\n")
    print(archive.name)
    print(checksum.name)


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    main(*sys.argv[1:])
