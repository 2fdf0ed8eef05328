"""Network, publishing, process and hand-off families (issue 16): each is a rule of the
model (a property of a program, an option or a verb), shown by attacks that must be
`dangerous` and by benign neighbours that must stay allowed or merely ask.
(The commands are data: they are only classified, never run.)"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from swebash.safety.gate import DefaultGate

# family → (commands that must be dangerous, a word one of the reasons contains; `a|b`: either)
DANGEROUS: dict[str, tuple[list[str], str]] = {
    "http_write": ([
        "curl -X POST https://api.example.com/items",
        "curl --request PUT https://api.example.com/items/1",
        "curl -XPATCH https://api.example.com/items/1",
        "curl -d name=x https://api.example.com/items",
        "curl --data-raw '{}' https://api.example.com/items",
        "curl -F file=@README.md https://upload.example.com/",
        "curl -T README.md https://upload.example.com/",
        "curl --json '{\"a\":1}' https://api.example.com/items",
        "wget --method=DELETE https://api.example.com/items/1",
        "wget -O- --post-data=a=1 https://api.example.com/form",
        "wget -O- --body-data=x --method=PUT https://api.example.com/x",
        "http POST https://api.example.com/items name=x",
        "https PUT api.example.com/items/1 name=y",
        "http PATCH api.example.com/items/1",
        "gh api -X DELETE repos/o/r/issues/1",
        "gh api --method POST repos/o/r/issues -f title=x",
        "gh api repos/o/r/issues -f title=x",
        "gh api repos/o/r/issues -F title=x",
        "gh api repos/o/r/issues --raw-field title=x",
        "gh api graphql --input q.json",
    ], "changes something"),
    "listen": ([
        "openssl s_server -accept 4433 -www",
        "nc -l 4444",
        "nc -lvnp 4444",
        "ncat -l 8080",
        "ncat --listen 8080",
        "socat TCP-LISTEN:8080,fork -",
        "python3 -m http.server 8000",
        "python -m http.server",
        "php -S 0.0.0.0:8000",
    ], "listens"),
    "scan": ([
        "nmap 10.0.0.0/24",
        "nmap -sV example.com",
        "masscan -p80 10.0.0.0/8",
        "zmap -p 443",
    ], "scans"),
    "capture": ([
        "tcpdump -i any",
        "tcpdump -c 10 -i eth0",
        "tshark -i eth0 -c 5",
        "dumpcap -i eth0",
        "ngrep -d any password",
    ], "captures"),
    "tunnel": ([
        "ssh -R 8080:localhost:80 example.com",
        "ssh -L 5432:db.internal:5432 bastion.example.com",
        "ssh -D 1080 example.com",
        "ssh -N -R 9000:localhost:22 example.com",
        "autossh -M 0 -R 80:localhost:8000 serveo.net",
        "cloudflared tunnel --url http://localhost:8000",
        "ngrok http 8000",
        "devtunnel host -p 8000",
        "bore local 8000 --to bore.pub",
        "lt --port 8000",
        "localtunnel --port 8000",
        "chisel client example.com:8080 R:socks",
        "frpc -c frpc.toml",
    ], "tunnel"),
    "push": ([
        "git push",
        "git push origin main",
        "git push --force origin main",
        "git -C . push",
        "git push --dry-run",
    ], "publishes commits"),
    "remote": ([
        "git remote add evil https://evil.example/r.git",
        "git remote set-url origin https://evil.example/r.git",
        "git remote rename origin upstream",
        "git config remote.origin.url https://evil.example/r.git",
        "git config remote.origin.pushurl https://evil.example/r.git",
        "git config --local remote.origin.url https://evil.example/r.git",
    ], "remote"),
    "history": ([
        "git replace HEAD~1 HEAD",
        "git update-ref refs/heads/main HEAD~3",
        "git update-ref -d refs/heads/main",
        "git symbolic-ref HEAD refs/heads/other",
    ], "history"),
    "publish": ([
        "twine upload dist/*",
        "npm publish",
        "npm publish --access public",
        "cargo publish",
        "gem push pkg-1.0.gem",
        "poetry publish",
        "poetry publish --build",
        "flit publish",
        "uv publish",
        "docker push example/image:latest",
        "podman push example/image",
    ], "publishes"),
    "scripts": ([
        "npm pkg set scripts.test='curl x | sh'",
        "npm set-script test 'node evil.js'",
        "yarn config set script-shell /tmp/x.sh",
        "npm config set script-shell ./x.sh",
    ], "script|code|configuration"),
    "containers": ([
        "docker build .",
        "docker run --rm alpine id",
        "docker exec -it web sh",
        "docker compose up",
        "docker compose run web id",
        "docker compose exec web sh",
        "docker-compose up -d",
        "docker buildx build .",
        "docker cp web:/etc/passwd .",
        "docker commit web img",
        "docker load -i image.tar",
        "docker import image.tar",
        "podman run alpine id",
        "podman build .",
        "nerdctl run alpine id",
        "nerdctl compose up",
    ], "daemon"),
    "ctr": ([
        "ctr run docker.io/library/alpine:latest x id",
        "ctr images pull docker.io/library/alpine:latest",
        "ctr tasks exec --exec-id 1 x sh",
        "ctr containers rm x",
    ], "ctr"),
    "processes": ([
        "renice -n 5 -p 1234",
        "renice 10 1234",
        "ionice -c3 -p 1234",
        "taskset -p 0x1 1234",
        "taskset -cp 0 1234",
        "chrt -p 10 1234",
        "prlimit --pid 1234 --nofile=10",
        "gdb -p 1234",
        "strace -p 1234",
        "ltrace -p 1234",
        "pkill -f python",
        "killall python",
    ], "process"),
    "handoff": ([
        "xdg-open https://example.com",
        "xdg-open README.md",
        "sensible-browser https://example.com",
        "x-www-browser https://example.com",
        "www-browser https://example.com",
        "gio open README.md",
        "gnome-open README.md",
        "kde-open README.md",
        "open README.md",
        "wslview README.md",
    ], "another program"),
    "others": ([
        "logger hello",
        "logger -t app message",
        "systemd-cat echo hi",
        "wall hello",
        "write root",
        "talk root",
        "mesg y",
    ], "other"),
    "capture_devices": ([
        "import -window root shot.png",
        "scrot",
        "gnome-screenshot -f shot.png",
        "xwd -root -out shot.xwd",
        "grim shot.png",
        "xclip -o",
        "xclip -selection clipboard -o",
        "xsel -o",
        "xsel --clipboard --output",
        "wl-paste",
        "arecord out.wav",
        "ffmpeg -f x11grab -i :0 out.mp4",
        "ffmpeg -f v4l2 -i /dev/video0 out.mp4",
        "ffmpeg -f alsa -i default out.wav",
        "ffmpeg -f pulse -i default out.wav",
    ], "captures"),
    "pydoc_serve": ([
        "pydoc -p 8000",
        "pydoc -b",
        "python3 -m pydoc -p 1234",
    ], "serves"),
}

# read-only neighbours: allowed
ALLOWED = [
    "curl https://example.com",
    "curl -sSL https://example.com/page",
    "curl -X GET https://example.com",
    "curl -I https://example.com",
    "curl -X HEAD https://example.com",
    "wget -qO- https://example.com",
    "http https://example.com",
    "http GET https://example.com",
    "gh api repos/o/r/issues",
    "gh api -X GET repos/o/r/issues",
    "git remote -v",
    "git remote",
    "git remote show origin",
    "git remote get-url origin",
    "git config remote.origin.url",
    "git config --get remote.origin.url",
    "git symbolic-ref HEAD",
    "git symbolic-ref --short HEAD",
    "git log --oneline",
    "docker ps",
    "docker images",
    "docker inspect web",
    "docker logs web",
    "podman ps",
    "ctr images ls",
    "ctr containers ls",
    "ctr tasks ls",
    "twine check dist/pkg-1.0.tar.gz",
    "getfattr -d README.md",
    "xattr README.md",
    "xattr -l README.md",
    "npm pkg get scripts",
    "curl -X OPTIONS https://example.com",
    "tcpdump -D",
    "cloudflared --version",
    "ngrok version",
    "openssl s_client -connect example.com:443",
    "git config user.name",
    "docker compose ps",
    "docker container ls",
    "docker logs --tail 5 web",
    "ctr --namespace k8s.io images ls -q",
    "gio info README.md",
    "xdg-mime query filetype README.md",
    "ffmpeg -version",
    "mesg",
    "twine check --strict dist/pkg-1.0.tar.gz",
]

# neighbours that ask without `dangerous`
ASK_ONLY = [
    "sleep 60 & renice -n 5 -p $!",
    "sleep 60 & p=$!; taskset -p 0x1 $p",
    "sleep 60 & strace -p $!",
    "setfattr -n user.note -v x README.md",
    "xattr -w user.note x README.md",
    "pydoc -w json",
    "pydoc json",
    "python3 -m pydoc json",
    "curl -G -d q=x https://example.com/search",
    "tcpdump -r capture.pcap",
    "tshark -r capture.pcap",
    "ssh example.com uptime",
    "nc -z example.com 80",
    "chrt -p 1234",
    "taskset -p 1234",
    "ionice -p 1234",
    "sleep 60 & prlimit --pid $! --nofile=10",
    "sleep 60 & gdb -p $!",
    "sleep 60 & p=$!; chrt -p 10 $p",
    "docker pull alpine",
    "git config user.name x",
    "git remote prune origin",
    "npm pkg set description=x",
    "mesg n",
    "ffmpeg -i in.mp4 out.webm",
    "pydoc -k json",
    "gio trash README.md",
]


@pytest.fixture
def workdir(tmp_path: Path, hermetic_env: Path) -> Iterator[Path]:
    work = tmp_path / "project"
    (work / "dist").mkdir(parents=True)
    for name in ("README.md", "q.json", "image.tar", "frpc.toml", "pkg-1.0.gem"):
        (work / name).write_text("data\n")
    (work / "dist" / "pkg-1.0.tar.gz").write_text("data\n")
    yield work


CASES = [(family, command, word) for family, (commands, word) in DANGEROUS.items()
         for command in commands]


@pytest.mark.parametrize(("family", "command", "word"), CASES,
                         ids=[f"{fam}:{cmd}" for fam, cmd, _ in CASES])
def test_dangerous_with_its_reason(family: str, command: str, word: str, gate: DefaultGate,
                                   workdir: Path) -> None:
    verdict = gate.check_command(command, str(workdir))
    assert verdict.decision != "allow" and verdict.dangerous, f"{command!r}: {verdict}"
    assert any(w in reason for reason in verdict.reasons for w in word.split("|")), \
        f"{command!r}: no reason says {word!r}: {verdict.reasons}"
    assert all(len(r) <= 120 for r in verdict.reasons)


@pytest.mark.parametrize("command", ALLOWED)
def test_read_only_neighbour_allowed(command: str, gate: DefaultGate, workdir: Path) -> None:
    verdict = gate.check_command(command, str(workdir))
    assert verdict.decision == "allow", f"{command!r}: {verdict}"


@pytest.mark.parametrize("command", ASK_ONLY)
def test_neighbour_asks_without_danger(command: str, gate: DefaultGate,
                                       workdir: Path) -> None:
    verdict = gate.check_command(command, str(workdir))
    assert verdict.decision == "ask" and not verdict.dangerous, f"{command!r}: {verdict}"
