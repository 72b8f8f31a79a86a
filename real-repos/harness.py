"""What run.py and recall.py share: the pinned repositories and their unpacking."""
import os, subprocess

here = os.path.dirname(os.path.abspath(__file__))
mirrors = os.environ.get("MIRRORS", "/work/.mirror")


def repos():
    """(name, mirror, commit, [folder]) of each line of repos.txt."""
    out = []
    for line in open(os.path.join(here, "repos.txt"), encoding="utf-8"):
        if line.startswith("#") or not line.strip():
            continue
        name, mirror, commit, *under = line.split()
        out.append((name, mirror, commit, under))
    return out


def unpack(mirror, commit, under, dest):
    """Extracts the commit (only `under`, if given) into dest; returns the paths absent from
    the mirror (a mirror may lack its largest files), which are left out."""
    git = os.path.join(mirrors, mirror, "repo")
    tree = subprocess.run(["git", f"--git-dir={git}", "ls-tree", "-r", "-z", commit, *under],
                          check=True, capture_output=True).stdout.decode().split("\0")
    blobs = [t.split("\t", 1) for t in tree if t]
    blobs = [(meta.split()[2], path) for meta, path in blobs if meta.split()[1] == "blob"]
    check = subprocess.run(["git", f"--git-dir={git}", "cat-file", "--batch-check"],
                           input="".join(o + "\n" for o, _ in blobs).encode(),
                           check=True, capture_output=True).stdout.decode().splitlines()
    missing = [path for (o, path), c in zip(blobs, check) if c.endswith("missing")]
    excludes = [f":(exclude,literal){p}" for p in missing]
    os.makedirs(dest, exist_ok=True)
    archive = subprocess.run(["git", f"--git-dir={git}", "archive", commit, "--", *(under or ["."]), *excludes],
                             check=True, capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", dest], input=archive, check=True)
    return missing
