"""Grammars of system administration tools: systemd, scheduling, processes, kernel and
firewall settings, disks and filesystems, users, debuggers and binary inspectors, terminal
multiplexers and desktop tools. Their status and listing forms read; anything that stops,
kills, deletes, changes the kernel, the firewall, disks or users is dangerous."""

from __future__ import annotations

from swebash.safety.classify.grammar import Spec, Table, definer, prog

SPECS: Table = {}
define = definer(SPECS)

ADMIN = "changes system configuration"


def reads(options: str = "", args: str = "p*", **kw: object) -> Spec:
    return prog(options, args=args, inherits=True, **kw)  # type: ignore[arg-type]


def does(effect: str, dangerous: bool = False, hook: str = "") -> Spec:
    return prog(args="p*", raw=True, effect=effect, dangerous=dangerous, hook=hook)


SYSTEMCTL = ("-t: -p: -P: -a -r -l -i -q -f -n: -o: -s: --type: --state: --property: --all "
             "--recursive --reverse --after --before --with-dependencies --full --value "
             "--show-types --failed --no-pager --no-legend --legend: --plain --lines: "
             "--output: --timestamp: --user --system --global --no-ask-password --no-block "
             "--no-wall --no-reload --quiet --wait --dry-run --now --runtime --job-mode: "
             "--check-inhibitors: --kill-whom: --kill-value: --signal: --what: --force "
             "--preset-mode: --firmware-setup --boot-loader-menu: --boot-loader-entry: "
             "--read-only --mkdir --marked --show-transaction -T --when: --drop-in: "
             "--root:n --image: -M: --machine:")
STOPS = "stops, kills, masks or disables services or the machine"
define("systemctl", lambda: prog(
    SYSTEMCTL, abbrev=False, verb_optional=True, info="--version --help -h", admin=True,
    ask={"-H:h --host:h": "acts on another machine over ssh"},
    subs={"status show cat list-units list-unit-files list-sockets list-timers list-jobs "
          "list-dependencies list-machines list-automounts list-paths is-active is-enabled "
          "is-failed is-system-running get-default show-environment whoami help":
              reads(abbrev=False),
          "stop kill disable mask isolate rescue emergency poweroff reboot halt kexec "
          "suspend hibernate hybrid-sleep suspend-then-hibernate soft-reboot default exit "
          "switch-root freeze clean": does(STOPS, True),
          "set-environment unset-environment import-environment edit link revert "
          "daemon-reexec": does("changes what services run or the environment they run "
                                "with", True),
          "start restart reload try-restart reload-or-restart try-reload-or-restart "
          "condrestart force-reload enable reenable preset preset-all daemon-reload "
          "set-default set-property add-wants add-requires reset-failed thaw bind "
          "mount-image log-level log-target service-watchdogs service-log-level "
          "service-log-target list-paths-old": does("changes system services",
                                                    hook="systemctl_path")}))
define("service", lambda: prog(args="p*", raw=True, hook="service", admin=True))
JOURNAL = ("-mkrxeaqfNFc -b:? -M: -D:n -S: -U: -u: -t: -T: -p: -g: -o: -n:: -I: "
           "--system --user --machine: --merge --directory:n --file:r --root:n --image: "
           "--namespace: --since: --until: --cursor: --after-cursor: --cursor-file:w "
           "--boot:? --unit: --user-unit: --identifier: --exclude-identifier: --priority: "
           "--facility: --grep: --case-sensitive:: --dmesg --output: --output-fields: "
           "--lines:: --reverse --show-cursor --utc --catalog --no-hostname --no-full "
           "--full --all --follow --no-tail --quiet --no-pager --pager-end --interval: "
           "--force --fields --field: --list-boots --disk-usage --verify --header "
           "--list-catalog --dump-catalog --list-namespaces --truncate-newline "
           "--list-invocation --invocation: -i: -l")
define("journalctl", lambda: prog(
    JOURNAL, args="p*",
    danger={"--vacuum-size: --vacuum-files: --vacuum-time: --sync --relinquish-var "
            "--smart-relinquish-var --flush --rotate --update-catalog --setup-keys "
            "--verify-key:": "changes or deletes the journal"}))
define("loginctl", lambda: prog(
    "-a -l -n: -o: -p: -P: --all --full --lines: --output: --property: --value "
    "--no-pager --no-legend --no-ask-password -H:h --host:h -M: --machine:",
    verb_optional=True, info="--version --help -h",
    subs={"list-sessions session-status show-session list-users user-status show-user "
          "list-seats seat-status show-seat": reads(),
          "terminate-session terminate-user terminate-seat kill-session kill-user "
          "disable-linger": does("ends sessions or kills users' processes", True),
          "lock-session lock-sessions unlock-session unlock-sessions activate "
          "enable-linger attach flush-devices": does("changes sessions")}))
define("busctl gdbus", lambda: prog(
    "--system --user --session -H:h -M: --address: --no-pager --no-legend --json: -j "
    "--acquired --activatable --unique --show-machine --xml-interface --full --verbose "
    "--expect-reply: --quiet -q --augment-creds: --watch-bind: --timeout: --size: "
    "--match: -l --limit-messages:",
    subs={"list status tree introspect help": reads(),
          "monitor capture": does("records the messages on the system bus"),
          "call emit set-property get-property wait": does(
              "calls a system service over D-Bus", True)}))
define("dbus-send qdbus dbus-monitor", lambda: prog(
    args="p*", raw=True, effect="talks to services over D-Bus", dangerous=True))
define("crontab", lambda: prog(args="p*", raw=True, hook="crontab", admin=True))
define("at batch", lambda: prog(args="p*", raw=True, hook="at"))
define("atq", lambda: prog("-q: -V", args="p*"))
define("atrm", lambda: prog(args="p*", raw=True, effect="removes scheduled jobs",
                            dangerous=True))
define("pkill killall killall5 skill slay", lambda: prog(
    args="p*", raw=True, effect="stops processes", dangerous=True))
define("renice", lambda: prog(args="p*", raw=True, hook="renice"))
define("prlimit", lambda: prog(args="p*", raw=True, hook="prlimit"))
define("fuser", lambda: prog("-aumsvw46 -n: --all --mount --ismountpoint --silent "
                             "--user --verbose --namespace: -V", args="p*",
                             danger={"-k --kill -i --interactive -M": "kills processes"}))
define("ps", lambda: prog(args="p*", raw=True, hook="ps"))
define("dmesg", lambda: prog(
    "-THLkuxwWtrePJp -l: -f: -F:r -s: --ctime --human --color:: --kernel --userspace "
    "--decode --follow --follow-new --notime --raw --reltime --level: --facility: "
    "--file:r --buffer-size: --since: --until: --time-format: --json --nopager "
    "--noescape --force-prefix --syslog", args="",
    danger={"-c -C --clear --read-clear -n: --console-level: -D -E --console-off "
            "--console-on": "changes or clears the kernel log"}))
define("sysctl", lambda: prog(args="p*", raw=True, hook="sysctl"))
define("iptables ip6tables iptables-legacy ip6tables-legacy iptables-nft ebtables "
       "arptables", lambda: prog(args="p*", raw=True, hook="iptables"))
define("iptables-save ip6tables-save", lambda: prog("-c -t: -M: --counters --table: "
                                                    "--modprobe:"))
define("iptables-restore ip6tables-restore", lambda: prog(
    args="p*", raw=True, effect="replaces the firewall rules", dangerous=True))
define("nft", lambda: prog(args="p*", raw=True, hook="nft"))
define("ufw", lambda: prog(args="p*", raw=True, hook="ufw"))
define("firewall-cmd", lambda: prog(args="p*", raw=True, hook="firewall_cmd"))
define("umount swapoff", lambda: prog(
    args="p*", raw=True, effect="unmounts filesystems or disables swap", dangerous=True))
define("swapon", lambda: prog("-s --show:: --summary --noheadings --bytes --raw -v",
                              args="p*", hook="swapon", admin=True,
                              ask={"-a --all -e --ifexists -p: --priority: -d:: --discard:: "
                                   "-f --fixpgsz": "enables swap"}))
DISK = "changes disks or filesystems"
define("mkfs mke2fs mkswap wipefs blkdiscard sgdisk resize2fs e2fsck fsck xfs_repair "
       "nvme format mkdosfs mkntfs", lambda: prog(args="p*", raw=True, hook="disk"))
define("fdisk sfdisk gdisk cfdisk parted losetup tune2fs cryptsetup dmsetup mdadm hdparm "
       "diskutil lvm pvcreate vgcreate lvcreate lvextend lvreduce lvresize lvremove "
       "vgremove pvremove vgextend vgreduce pvmove", lambda: prog(
           args="p*", raw=True, hook="disk"))
define("lvs vgs pvs lvdisplay vgdisplay pvdisplay lvscan vgscan pvscan blkid e2label "
       "xfs_info smartctl-i dumpe2fs lsscsi", lambda: prog(
           "-a -o: -O: --options: --sort: --units: --noheadings --separator: --nosuffix "
           "-v -i -H -c -s -p -l -h -x -t: -m -d --all --colon --short --verbose "
           "--reportformat: --readonly -b", args="n*"))
define("zfs", lambda: prog(args="p*", raw=True, hook="zfs"))
define("zpool", lambda: prog(args="p*", raw=True, hook="zfs"))
define("btrfs", lambda: prog(args="p*", raw=True, hook="btrfs"))
define("useradd userdel usermod groupadd groupdel groupmod chpasswd gpasswd newusers "
       "vipw vigr chsh chfn adduser deluser addgroup delgroup pwck grpck", lambda: prog(
           args="p*", raw=True, effect="changes users or groups", dangerous=True))
define("passwd", lambda: prog(args="p*", raw=True, hook="passwd"))
define("chage", lambda: prog("-l --list", args="p?", info="--help -h"))
define("visudo", lambda: prog("-c -q -s -f:r --check --quiet --strict --file:r", args="",
                              info="--version -V --help -h", hook="visudo", admin=True))
define("modprobe insmod rmmod depmod", lambda: prog(args="p*", raw=True, hook="modprobe"))
define("shutdown reboot halt poweroff init telinit systemd-poweroff", lambda: prog(
    args="p*", raw=True, effect="shuts down or restarts the machine", dangerous=True,
    info="--help"))
define("setcap", lambda: prog(args="p*", raw=True,
                              effect="gives a program root capabilities", dangerous=True))
define("getcap", lambda: prog("-r -v -n", args="n*"))
define("setenforce", lambda: prog(args="p*", raw=True, effect="turns SELinux enforcement "
                                  "off or on", dangerous=True))
define("getenforce sestatus aa-status apparmor_status", lambda: prog("-v -b --json "
                                                                      "--pretty-json",
                                                                      args=""))
define("update-alternatives", lambda: prog(args="p*", raw=True, hook="alternatives",
                                              admin=True))
define("ldconfig", lambda: prog(args="p*", raw=True, hook="ldconfig", admin=True))
define("grub-install update-grub grub-mkconfig efibootmgr bootctl kernelstub",
       lambda: prog(args="p*", raw=True, hook="boot"))
define("lsof", lambda: prog(
    "-hlnPRtUbwVXa -i:: -p: -u: -c: -d: -F: -g:: -r:: -s:: -S:: -T:: -x:: -z:: -Z:: -K:: "
    "-E -D: -o:: -O -k: -L::", args="n*"))
define("pmap", lambda: prog("-xXdqpAc --extended --device --quiet --show-path --range: "
                            "--read-rc --read-rc-from:r --create-rc --create-rc-to:w",
                            args="p+"))
define("strace ltrace", lambda: prog(args="p*", raw=True, hook="tracer"))
define("gdb cgdb gdb-multiarch lldb", lambda: prog(args="p*", raw=True, hook="debugger",
                                                  info="--version -v --help -h"))
define("gdbserver gcore pstack eu-stack", lambda: prog(
    args="p*", raw=True, effect="attaches to a process (it can read its memory)",
    dangerous=True, info="--version --help"))
define("reptyr xkill", lambda: prog(
    args="p*", raw=True, effect="takes over or kills another program's window or terminal",
    dangerous=True))
define("jmap criu", lambda: prog(
    args="p*", raw=True, effect="dumps or freezes a running process (its memory, its secrets)",
    dangerous=True, info="--version --help -h -V"))
# attaching to a running process reads its memory: the processes.py rule (hooks_outside)
define("jstack jcmd jinfo jhsdb rbspy dotnet-dump dotnet-trace dotnet-gcdump "
       "dotnet-counters dotnet-stack", lambda: prog(args="p*", raw=True, hook="pid_tool",
                                                    info="--version --help -h -V"))
define("cgclassify", lambda: prog(args="p*", raw=True, hook="cgclassify",
                                  info="--version --help -h"))
define("perf", lambda: prog(args="p*", raw=True, hook="perf"))
define("valgrind", lambda: prog(
    "-q -v --quiet --verbose --tool: --leak-check: --show-leak-kinds: --track-origins: "
    "--log-file:w --log-fd: --xml: --xml-file:w --trace-children: --error-exitcode: "
    "--num-callers: --suppressions:r --gen-suppressions: --child-silent-after-fork: "
    "--time-stamp: --read-var-info: --main-stacksize: --max-stackframe: --smc-check: "
    "--undef-value-errors: --keep-stacktraces: --freelist-vol: --partial-loads-ok: "
    "--expensive-definedness-checks: --errors-for-leak-kinds: --show-reachable: "
    "--demangle: --fair-sched: --massif-out-file:w --callgrind-out-file:w "
    "--cachegrind-out-file:w --track-fds: --leak-resolution: --vgdb: --vgdb-error:",
    args="x", permute=False, abbrev=False))
BINUTILS = "--plugin:"
define("nm gcc-nm llvm-nm", lambda: prog(
    "-aABCDghlnopPrsSuUVWjX: -f: -t: --debug-syms --print-file-name --format: --demangle:: "
    "--no-demangle --dynamic --extern-only --line-numbers --numeric-sort --no-sort "
    "--portability --reverse-sort --size-sort --print-size --print-armap --radix: "
    "--undefined-only --defined-only --special-syms --synthetic --target: "
    "--with-symbol-versions --without-symbol-versions --quiet --ifunc-chars: --unicode: "
    "--no-recurse-limit --recurse-limit --just-symbols", args="r*",
    danger={BINUTILS: "loads the plugin library it is given"}))
define("objdump llvm-objdump", lambda: prog(
    "-afphxdDSsgeGtTrRClFLwzivHWj: -P: -m: -M: -b: -W:: --archive-headers --file-headers "
    "--private: --private-headers --headers --section-headers --all-headers "
    "--disassemble:: --disassemble-all --disassemble-zeroes --prefix-addresses --source "
    "--full-contents --section: --syms --dynamic-syms --reloc --dynamic-reloc "
    "--demangle:: --line-numbers --file-offsets --wide --architecture: "
    "--disassembler-options: --endian: --target: --start-address: --stop-address: "
    "--visualize-jumps:: --no-show-raw-insn --show-raw-insn --insn-width: --dwarf:: "
    "--debugging --stabs --no-addresses --prefix: --prefix-strip: --special-syms "
    "--adjust-vma: --source-comment:: --disassembler-color: --inlines --info --help "
    "--version --debugging-tags --process-links --ctf:: --sframe:: --decompress",
    args="r*", danger={BINUTILS: "loads the plugin library it is given"}))
define("readelf eu-readelf llvm-readelf", lambda: prog(
    "-ahlSgtseunrudVADIzwWCTLN -x: -p: -R: -w:: --all --file-header --program-headers "
    "--segments --section-headers --sections --section-groups --section-details --symbols "
    "--syms --dyn-syms --lto-syms --sym-base: --notes --relocs --unwind --dynamic "
    "--version-info --arch-specific --histogram --use-dynamic --hex-dump: --string-dump: "
    "--relocated-dump: --decompress --archive-index --debug-dump:: --ctf:: --wide "
    "--demangle:: --no-demangle --silent-truncation --lint --enable-checks "
    "--recurse-limit --no-recurse-limit", args="r*"))
define("size", lambda: prog("-ABGdoxt --format: --radix: --common --totals --target:",
                            args="r*"))
define("c++filt llvm-cxxfilt", lambda: prog("-_pt -s: --strip-underscore --no-params "
                                            "--types --format: --no-recurse-limit",
                                            args="p*"))
define("addr2line llvm-addr2line", lambda: prog(
    "-aCfipsrR -b: -e:r -j: --addresses --target: --demangle:: --exe:r --functions "
    "--inlines --pretty-print --basenames --section:", args="p*"))
define("ldd", lambda: prog("-vuRrd --verbose --unused --data-relocs --function-relocs",
                           args="p+", hook="ldd"))
define("tmux", lambda: prog(
    "-2CDluNvV -L:", args="p*", hook="tmux", permute=False,
    danger={"-c:c": "runs a shell command", "-f:r": "loads a configuration (it can run "
            "commands)", "-S:n": "talks to the tmux server at a chosen socket (another "
            "user's server runs commands as that user)"}))
define("screen", lambda: prog(args="p*", raw=True, hook="screen"))
define("xdotool ydotool wtype kitty wezterm", lambda: prog(args="p*", raw=True,
                                                           hook="typist"))
define("xclip xsel pbcopy wl-copy clip.exe", lambda: prog(args="p*", raw=True,
                                                          hook="clipboard"))
define("pbpaste wl-paste", lambda: prog("-n -p -l -t: --no-newline --primary --list-types "
                                        "--type:", args="", effect="captures the clipboard "
                                        "(it may hold a password)", dangerous=True))
define("gsettings dconf", lambda: prog(args="p*", raw=True, hook="settings",
                                      admin=True))
define("xdg-open open sensible-browser x-www-browser www-browser gnome-open kde-open "
       "kde-open5 exo-open wslview gio xdg-mime", lambda: prog(args="p*", raw=True,
                                                              hook="opener"))
define("notify-send", lambda: prog("-u: -t: -a: -i: -c: -h: -e --urgency: --expire-time: "
                                   "--app-name: --icon: --category: --hint:", args="p*"))
# the machine's clock, locale, trust store and network identity: administration
define("hwclock", lambda: prog(
    "-r --show --get -V --verbose --test --utc --localtime -u -l --debug --rtc:",
    admin=True, danger={"-w --systohc -s --hctosys --set --date: --adjust --systz "
                        "--predict --update-drift": "sets the hardware or system clock"}))
define("trust", lambda: prog(
    "--filter: --purpose: --format:", admin=True,
    subs={"list dump": prog(args="p*", inherits=True)}))
define("locale-gen update-locale update-ca-certificates update-ca-trust update-initramfs "
       "dpkg-reconfigure mkinitcpio dracut", lambda: prog(
           args="p*", raw=True, admin=True, info="--version --help",
           effect="rebuilds or changes the machine's system configuration"))
define("tailscale zerotier-cli wg wg-quick", lambda: prog(
    "--socket:", admin=True, info="--version version --help",
    subs={"status ip version netcheck whois show listnetworks info": prog(
        args="p*", inherits=True, raw=True)}))
define("jupyter jupyter-notebook jupyter-lab", lambda: prog(
    args="p*", raw=True, hook="jupyter", info="--version --help --paths -h"))
define("lxc incus", lambda: prog(
    "--project: --quiet -q --verbose -v --debug --force-local", info="--version version --help",
    subs={"list ls info version": prog("-c: --columns: -f: --format:", args="p*",
                                       inherits=True),
          "exec shell console launch init start stop restart delete rm copy cp move mv file "
          "push pull edit snapshot restore publish export import rebuild": prog(
              args="p*", raw=True, inherits=True, effect="runs, changes or enters "
              "containers", dangerous=True)}))
define("docker-credential-desktop docker-credential-pass docker-credential-secretservice "
       "docker-credential-osxkeychain docker-credential-wincred docker-credential-ecr-login "
       "docker-credential-gcr docker-credential-gcloud", lambda: prog(
           args="p*", raw=True, effect="prints stored registry credentials", dangerous=True,
           info="version --version --help"))
define("sensible-editor select-editor editor", lambda: prog(
    args="p*", raw=True, effect="opens an editor chosen by your settings (it can run "
    "anything)", dangerous=True))
