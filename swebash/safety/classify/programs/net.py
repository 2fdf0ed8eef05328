"""Grammars of network programs: HTTP clients, remote shells and copies, DNS and reachability
tools, and the network configuration tools whose listing forms only read.

A plain GET printed to stdout is read-only; sending data (a body, a file, a value computed at
run time), a proxy, a config file, a non-web scheme or a cloud metadata address is not
(``hooks_net.py``).
"""

from __future__ import annotations

from swebash.safety.classify.grammar import Spec, Table, definer, prog

SPECS: Table = {}
define = definer(SPECS)

UPLOAD = "uploads data"
CREDENTIALS = "sends credentials (a password, a token or a client key)"
CURL = (
    "-fsSLIikv46#NGgjlqZ0123BaRM -m: -H: -A: -e: -r: -z: -Y: -y: -X: -w: -C: -o:w -D:w "
    "-c:w --silent --show-error --location --location-trusted --fail --fail-early "
    "--fail-with-body --head --include --insecure --verbose --compressed --compressed-ssh "
    "--http0.9 --http1.0 --http1.1 --http2 --http2-prior-knowledge --http3 --http3-only "
    "--ipv4 --ipv6 --no-buffer --no-progress-meter --progress-bar --globoff --get --raw "
    "--tcp-nodelay --tcp-fastopen --path-as-is --disable --retry-all-errors "
    "--retry-connrefused --styled-output --no-styled-output --ssl --ssl-reqd --no-keepalive "
    "--no-sessionid --no-alpn --no-npn --tr-encoding --trace-time --anyauth --basic "
    "--digest --false-start --cert-status --ssl-allow-beast "
    "--ssl-no-revoke --ssl-revoke-best-effort --ssl-auto-client-cert --tlsv1 --tlsv1.0 "
    "--tlsv1.1 --tlsv1.2 --tlsv1.3 --sslv2 --sslv3 --parallel --parallel-immediate "
    "--list-only --junk-session-cookies --post301 --post302 --post303 --remote-time "
    "--suppress-connect-headers --ignore-content-length --disallow-username-in-url "
    "--doh-insecure --doh-cert-status --manual --remove-on-error --no-clobber --xattr "
    "--max-time: --connect-timeout: --retry: --retry-delay: --retry-max-time: --header: "
    "--user-agent: --referer: --range: --max-redirs: --max-filesize: --time-cond: "
    "--limit-rate: --resolve: --connect-to: --url:u --keepalive-time: --proto: "
    "--proto-redir: --proto-default: --cacert:m --capath:n --ciphers: --tls13-ciphers: "
    "--curves: --tls-max: --expect100-timeout: --local-port: --interface: --dns-servers: "
    "--dns-interface: --dns-ipv4-addr: --dns-ipv6-addr: --doh-url:u --noproxy: "
    "--parallel-max: --speed-limit: --speed-time: --rate: --request-target: "
    "--pinnedpubkey: --hostpubmd5: --hostpubsha256: --create-file-mode: "
    "--service-name: --happy-eyeballs-timeout-ms: "
    "--request: --write-out: --continue-at: --next "
    "--output:w --dump-header:w --cookie-jar:w --trace:w --trace-ascii:w --stderr:w "
    "--libcurl:w --etag-save:w --hsts:a --alt-svc:a --output-dir:a "
    "--cert-type: --key-type: --egd-file:m --random-file:m --crlfile:m")
define("curl", lambda: prog(
    CURL, args="u*", hook="curl",
    ask={"-O --remote-name --remote-name-all -J --remote-header-name --create-dirs":
         "writes the download to a file",
         "-d: --data: --data-ascii: --data-binary: --data-raw: --data-urlencode: -F: "
         "--form: --form-string: --json: -T:r --upload-file:r": "sends a request body"},
    danger={"--url-query: --variable: "
            "--expand-data: --expand-url: --expand-header: --mail-from: --mail-rcpt: "
            "--mail-auth: --mail-rcpt-allowfails -Q: --quote: -t: --telnet-option: "
            "--ftp-port: -P: --ftp-create-dirs --ftp-method: --ftp-account: "
            "--ftp-alternative-to-user: --ftp-pasv --ftp-pret --ftp-skip-pasv-ip "
            "--ftp-ssl-ccc --ftp-ssl-ccc-mode: --ftp-ssl-control --crlf": UPLOAD,
            "-x: --proxy: --preproxy: --socks4: --socks4a: --socks5: --socks5-hostname: "
            "--proxy1.0: -p --proxytunnel --proxy-header: --haproxy-protocol":
            "goes through a proxy",
            "-K: --config: --netrc-file:r": "reads options or credentials from a file",
            "--etag-compare:r": "sends a file's content in a request header",
            "--unix-socket: --abstract-unix-socket:":
            "talks to a local socket (the docker daemon, …)",
            "-u: --user: -U: --proxy-user: --oauth2-bearer: --aws-sigv4: -E:r --cert:r "
            "--key:r --pass: --negotiate --ntlm --ntlm-wb --delegation: --sasl-authzid: "
            "--sasl-ir --login-options: --krb: --kerberos: --proxy-negotiate --proxy-ntlm "
            "--proxy-digest --proxy-basic --proxy-anyauth --proxy-cert:r --proxy-key:r "
            "--proxy-pass: --proxy-tlsuser: --proxy-tlspassword: --tlsuser: --tlspassword: "
            "--tlsauthtype: -n --netrc --netrc-optional": CREDENTIALS,
            "-b: --cookie:": "sends cookies (a session is a credential)",
            "--engine:": "loads a crypto engine library"}))
define("wget wget2", lambda: prog(
    "-qvSc46Nk -T: -t: -U: -w: -O:w -nv --quiet --verbose --no-verbose --server-response "
    "--spider --no-check-certificate --check-certificate:: --inet4-only --inet6-only "
    "--no-cache --show-progress --progress: --no-dns-cache --dns-timeout: "
    "--connect-timeout: --read-timeout: --timeout: --tries: --user-agent: --header: "
    "--referer: --max-redirect: --limit-rate: --wait: --waitretry: --random-wait "
    "--no-proxy --ca-certificate:m --ca-directory:n --secure-protocol: --https-only "
    "--compression: --content-on-error --content-disposition --retry-connrefused "
    "--retry-on-host-error --retry-on-http-error: --output-document:w --ignore-length "
    "--no-hsts --hsts-file:a --no-cookies --local-encoding: --remote-encoding: "
    "--unlink --no-clobber -nc --continue --timestamping --auth-no-challenge --default-page: "
    "--adjust-extension "
    "-E --save-headers --ignore-case --xattr --bind-address: --bind-dns-address: "
    "--dns-servers:", args="u*", hook="wget",
    danger={"-e: --execute: --config:": "runs .wgetrc commands it is given",

            "--use-askpass:": "runs the program it is given",
            "--proxy: -Y: --proxy-user: --proxy-password:": "goes through a proxy",
            "--user: --password: --http-user: --http-password: --ftp-user: --ftp-password: "
            "--ask-password --load-cookies:r --certificate:r --private-key:r": CREDENTIALS},
    ask={"-o:w --output-file:w -a:a --append-output:a": "writes a log file",
         "--post-data: --post-file:r --body-data: --body-file:r --method:":
         "sends a request body or another method",
         "-i:r --input-file:r -F --force-html -B: --base:": "reads URLs from a file",
         "-r --recursive -m --mirror -l: --level: -p --page-requisites -x "
         "--force-directories -P:a --directory-prefix:a -nd --no-directories -np "
         "--no-parent -nH --no-host-directories --cut-dirs: -A: --accept: -R: --reject: "
         "-D: --domains: -H --span-hosts -L --relative -K --backup-converted "
         "--convert-links": "downloads a tree of files",
         "-b --background": "keeps running in the background",
         "--save-cookies:w --keep-session-cookies --warc-file:w": "writes cookie or "
                                                                  "archive files"}))
define("http https xh xhs httpie", lambda: prog(
    "-bhvjfIFSmq4 -p: -P: -o:w --body --headers --meta --verbose --json --form --follow "
    "--check-status --ignore-stdin --pretty: --style: --print: --history-print: --timeout: "
    "--max-redirects: --verify: --ssl: --ciphers: --default-scheme: --offline --quiet "
    "--stream --max-headers: --unsorted --sorted --format-options: --response-charset: "
    "--response-mime: --all --path-as-is --chunked --compress --ipv4 --ipv6 -6 --https "
    "--http-version: --output:w --multipart --boundary: -d --download -c --continue "
    "--curl --curl-long --native-tls --no-follow --no-check-status --no-verbose "
    "--no-pretty --no-style --no-print --no-ignore-stdin --no-offline --no-stream "
    "--no-all --no-json --no-form --no-multipart --no-auth --no-auth-type --resolve: "
    "--interface:",
    args="p*", hook="httpie",
    danger={"--proxy: --session: --session-read-only: --unix-socket:": "goes through a "
            "proxy or a socket, or reads a session file",
            "-a: --auth: -A: --auth-type: --bearer: --cert:r --cert-key:r --cert-key-pass: "
            "--ssl-key:r": CREDENTIALS,
            "--raw:": UPLOAD}))
define("curlie", lambda: prog(CURL, args="p*", hook="curlie",
                              danger={"-d: --data: --json: -F: --form: -T:r "
                                      "--upload-file:r -x: --proxy: -K: --config: "
                                      "--unix-socket:": UPLOAD,
                                      "-u: --user: --oauth2-bearer: -E:r --cert:r --key:r "
                                      "-n --netrc --netrc-optional -b: --cookie:":
                                      CREDENTIALS}))
define("ssh", lambda: prog(
    "-46AaCfGgKkMNnqsTtVvXxYy -B: -b: -c: -D: -E:a -e: -F:r -I: -i:m -J: -L: -l: -m: -O: "
    "-o: -p: -Q: -R: -S: -W: -w:", args="h? p*", hook="ssh", permute=False,
    info="-V --version --help"))
define("scp sftp", lambda: prog(
    "-346ABCOpqRrTv -c: -D: -F:r -i:m -J: -l: -o: -P: -S: -X: -b:r -N -s:", args="p*",
    hook="scp", permute=False))
define("rsync", lambda: prog(
    "-vqcarRbuldLkKHpEAXogDtUNOJnWxzPhSi0468y -B: -e: -f: -T:n -M: --verbose --info: "
    "--debug: --quiet --no-motd --checksum --archive --recursive --relative --no-implied-dirs "
    "--backup --backup-dir: --suffix: --update --inplace --append --append-verify --dirs "
    "--mkpath --links --copy-links --copy-unsafe-links --safe-links --munge-links "
    "--copy-dirlinks --keep-dirlinks --hard-links --perms --executability --chmod: --acls "
    "--xattrs --owner --group --devices --specials --times --atimes --open-noatime "
    "--crtimes --omit-dir-times --omit-link-times --super --fake-super --sparse "
    "--preallocate --dry-run --whole-file --checksum-choice: --one-file-system "
    "--block-size: --existing --ignore-existing --size-only --modify-window: "
    "--temp-dir:n --fuzzy --compare-dest:n --copy-dest:n --link-dest:n --compress "
    "--compress-choice: --compress-level: --skip-compress: --cvs-exclude --filter: "
    "--exclude: --exclude-from:r --include: --include-from:r --files-from:r --from0 "
    "--protect-args --secluded-args --trust-sender --copy-as: --address: --port: "
    "--sockopts: --blocking-io --outbuf: --stats --8-bit-output --human-readable "
    "--progress --itemize-changes --remote-option: --out-format: --log-file:a "
    "--log-file-format: --password-file:r --early-input:r --list-only --bwlimit: "
    "--stop-after: --stop-at: --fsync --write-batch:w --only-write-batch:w --read-batch:r "
    "--protocol: --iconv: --ipv4 --ipv6 --version --help --numeric-ids --usermap: "
    "--groupmap: --chown: --timeout: --contimeout: --partial --partial-dir: "
    "--delay-updates --prune-empty-dirs --ignore-times --no-whole-file --max-size: "
    "--min-size: --max-alloc: --ignore-errors --force --max-delete: --mkpath",
    args="p*", hook="rsync",
    danger={"--delete --del --delete-before --delete-during --delete-delay "
            "--delete-after --delete-excluded --delete-missing-args --remove-source-files":
            "deletes files",
            "--rsh: --rsync-path:": "runs the program it is given"}))
define("nc ncat netcat socat telnet ftp tftp lftp smbclient websocat wscat", lambda: prog(
    args="p*", raw=True, hook="netcat"))
define("aria2c", lambda: prog(args="p*", raw=True, hook="aria2c",
                              effect="downloads into files"))
define("ssh-copy-id", lambda: prog(args="p*", raw=True, effect="installs your public key "
                                   "into another machine's account", dangerous=True))
define("lwp-download", lambda: prog("-a -s", args="u w?", effect="downloads into a file"))
PING = ("-46aABdDhLnOqrRUvV -c: -i: -I: -m: -M: -Q: -s: -S: -t: -T: -w: -W: -F: -N: -e:")
define("ping ping6", lambda: prog(PING, args="h+", hook="net_dynamic",
                                  danger={"-p:": "sends a chosen payload",
                                          "-f -b -l:": "floods or broadcasts packets"}))
define("arping fping", lambda: prog("-AbBcdDfhqUsv0 -c: -w: -i: -I: -s: -t: -T: -r: -p: "
                                    "--count: --interval: --timeout:", args="h*",
                                    hook="net_dynamic",
                                    danger={"-g --generate -f:r --file:r":
                                            "scans other hosts (a range or a list)"}))
define("traceroute traceroute6 tracepath tcptraceroute", lambda: prog(
    "-46dFIMnrTUeAb -f: -g: -i: -m: -N: -p: -t: -l: -q: -s: -w: -z: --icmp --tcp --udp "
    "--mtu --back --sport: --port: --queries: --wait:", args="h p?", hook="net_dynamic"))
define("mtr", lambda: prog(
    "-46hvrwbznjxCpeoOGQtdaIs -c: -i: -f: -m: -U: -B: -P: -L: -Q: -o: -s: -T -u -S "
    "--report --report-wide --report-cycles: --no-dns --show-ips --json --xml --csv "
    "--split --raw --interval: --max-ttl: --first-ttl: --port: --tcp --udp --timeout: "
    "--psize: --order: --aslookup --curses --displaymode: --gtk", args="h",
    hook="net_dynamic"))
define("dig kdig drill delv", lambda: prog(
    "-46hmruv -b: -c: -k:r -p: -q: -t: -x: -y: -i", args="h*", hook="net_dynamic",
    ask={"-f:r": "reads queries from a file"}))
define("host", lambda: prog("-aACdlNrsTUvVwW46 -c: -N: -R: -t: -W: -m:", args="h+",
                            hook="net_dynamic"))
define("nslookup", lambda: prog(args="h*", raw=True, hook="nslookup"))
define("whois", lambda: prog("-aAbBcdGHIKlLmMrRx -h:h -i: -T: -s: -t: -v: -q: "
                             "--host:h --verbose --no-recursion", args="h+",
                             hook="net_dynamic",
                             danger={"-p: --port:": "sends its words to a chosen port (a raw "
                                     "connection to any service)"}))
define("getent", lambda: prog("-is --service: --no-idn", args="p p*", hook="getent"))
define("resolvectl systemd-resolve", lambda: prog(
    "-46i -t: -c: -p: --legend: --no-pager --json: --cache: --zone: --trust-anchor: "
    "--type: --class: --service --service-address: --service-txt: --validate: "
    "--synthesize: --search: --raw: --interface: --status --statistics",
    subs={"status query q service openpgp tlsa statistics dns domain default-route llmnr "
          "mdns dnssec dnsovertls nta monitor show-cache show-server-state log-level":
          prog(args="h*", inherits=True, hook="resolver"),
          "flush-caches reset-statistics reset-server-features revert":
          prog(inherits=True, effect="changes the resolver's state")},
    verb_optional=True, admin=True))
define("ss", lambda: prog(
    "-hVHOnraleoimpTsEZNbx46022tuwSMA0 -f: -A: -N: --numeric --resolve --all --listening "
    "--extended --options --memory --info --processes --threads --cgroup --summary "
    "--events --context --contexts --net: --bpf --packet --tcp --udp --dccp --raw --unix "
    "--sctp --vsock --xdp --tipc --mptcp --inet-sockets --no-header --oneline --tos "
    "--family: --query: --socket: --ipv4 --ipv6 --bpf-maps --bpf-map-id: --kill-help "
    "--filter:r -F:r", args="p*",
    ask={"-D:w --diag:w": "dumps raw socket information to a file"},
    danger={"-K --kill": "kills sockets"}))
define("netstat", lambda: prog(
    "-tulpnaeoirsgMvWcCFx64 -A: --tcp --udp --listening --program --numeric --all "
    "--extend --timers --interfaces --route --statistics --groups --masquerade "
    "--verbose --wide --continuous --cache --fib --unix --inet --inet6 --numeric-hosts "
    "--numeric-ports --numeric-users --protocol: --symbolic"))
IP_READ = prog("-s -d -4 -6", args="p*", inherits=True, single=True)


def ip_object(reads: str, writes: str, danger: str = "", exec_verb: bool = False) -> Spec:
    subs = {reads: IP_READ}
    if writes:
        subs[writes] = prog(args="p*", inherits=True, raw=True, hook="ip_write", single=True,
                            effect="changes the network configuration")
    if danger:
        subs[danger] = prog(args="p*", inherits=True, raw=True, dangerous=True,
                            effect="removes network configuration")
    if exec_verb:
        subs["exec e"] = prog(args="p x", inherits=True, single=True,
                              effect="runs a command in another network context")
    return prog(args="p*", subs=subs, inherits=True, verb_optional=True, single=True)


def ip() -> Spec:
    objects = {
        "address addr ad a": ip_object("show sh s list ls lst showdump", "add change "
                                       "replace save restore", "del delete d flush f"),
        "route ro r": ip_object("show sh s list ls lst get g showdump", "add change replace "
                                "append prepend save restore", "del delete d flush f"),
        "link l": ip_object("show sh s list ls lst help", "add set change property "
                            "xstats afstats", "del delete d"),
        "neighbour neighbor neigh n": ip_object("show sh s list ls lst get", "add change "
                                                "replace", "del delete d flush f"),
        "rule ru": ip_object("show sh s list ls lst", "add save restore", "del delete flush"),
        "netns": ip_object("list ls show identify pids list-id", "add set attach",
                           "del delete", exec_verb=True),
        "vrf": ip_object("show sh s list ls pids identify", "", "", exec_verb=True),
        "maddress maddr m": ip_object("show sh s list ls", "add", "del delete"),
        "tunnel tun": ip_object("show sh s list ls", "add change", "del delete"),
        "tuntap tap": ip_object("show sh s list ls", "add", "del delete"),
        "mroute mr": ip_object("show sh s list ls", ""),
        "ntable": ip_object("show sh s list ls", "change"),
        "token": ip_object("list show sh s", "set", "del delete"),
        "nexthop nh": ip_object("show sh s list ls get", "add replace", "del delete flush"),
        "monitor mon": prog(args="p*", inherits=True, single=True),
        "xfrm": prog(args="p*", raw=True, inherits=True,
                     effect="prints or changes IPsec state and keys", dangerous=True),
    }
    return prog("-s -d -4 -6 -0 -B -M -a -c -h -j -p -o -r -t -N -n: -l: -f: -rc: "
                "-br -brief -color:: -details -human -iec -json -pretty -oneline -resolve "
                "-stats -statistics -timestamp -ts -all -netns: -loops: -family: -rcvbuf: "
                "-echo -numeric", single=True, subs=objects, admin=True,
                danger={"-b:r -batch:r": "runs ip commands from a file",
                        "-force": "keeps going after errors in a batch"},
                info="-V -Version --version help")


define("ip", ip)
define("ifconfig", lambda: prog("-a -s -v -l -u -d", args="p*", hook="ifconfig",
                                admin=True))
define("route", lambda: prog("-nNveFCA -4 -6 --numeric --extend --verbose --fib --cache",
                             args="p*", hook="route", admin=True))
define("arp", lambda: prog("-vnaeHi -H: -i: --verbose --numeric --all --device: "
                           "--hw-type:", args="p*",
                           ask={"-d -s -f --delete --set --file": "changes the ARP table"},
                           admin=True))
define("nmcli", lambda: prog(
    "-t -p -m: -c: -f: -e: -g: -w: -a --terse --pretty --mode: --colors: --fields: "
    "--escape: --get-values: --wait: --ask --version --help -v -h", args="p*",
    hook="nmcli", danger={"-s --show-secrets": "prints saved passwords"}, admin=True))
define("iw iwconfig iwlist", lambda: prog(args="p*", raw=True, hook="iw", admin=True))
define("ethtool", lambda: prog(
    "-iSkagcPTmelI --driver --statistics --show-features --show-offload --show-pause "
    "--show-ring --show-coalesce --show-permaddr --show-time-stamping --dump-module-eeprom "
    "--show-eee --json --include-statistics --show-priv-flags --show-fec --show-channels "
    "--show-rxfh --show-rxfh-indir --show-tunnels --module-info -x --show-nfc -n -u",
    args="p*", hook="ethtool_args",
    danger={"-s --change -K --features --offload -A --pause -G --set-ring -C --coalesce -E "
            "--change-eeprom -r --negotiate -p --identify -f --flash -W --set-dump -X "
            "--set-rxfh-indir --rxfh -L --set-channels --reset --set-priv-flags --set-eee "
            "--set-fec -N --config-nfc -U --config-ntuple -P": "changes the network "
                                                                 "interface"}))
define("tc bridge", lambda: prog("-s -d -j -p -r -n -t -c -stats -details -json -pretty "
                                 "-raw -color:: -iec -oneline", args="p*", single=True,
                                 hook="show_only", admin=True))
define("nmap", lambda: prog(args="p*", raw=True, hook="nmap",
                            effect="scans other hosts on the network", dangerous=True))
# capturing traffic sees other programs' data (credentials, cookies); reading a saved
# capture (`-r FILE`) does not (hooks_net.capture)
define("tcpdump tshark dumpcap ngrep tcpflow", lambda: prog(args="p*", raw=True, hook="tcpdump",
                                                   info="--version -v -V --help -h"))
define("ettercap bettercap arpspoof dnsspoof dsniff mitmproxy mitmdump responder "
       "airodump-ng airmon-ng aireplay-ng wifite kismet sngrep tcpick sniffglue justniffer "
       "p0f zeek bro suricata snort",
       lambda: prog(args="p*", raw=True, effect="captures or intercepts other hosts' traffic",
                    dangerous=True, info="--version -v -V --help -h"))
define("rustscan naabu netdiscover unicornscan nbtscan nping nikto gobuster ffuf dirb wfuzz "
       "feroxbuster sqlmap nuclei wpscan amass subfinder dnsrecon fierce dnsenum whatweb "
       "sslscan sslyze testssl testssl.sh enum4linux smbmap crackmapexec netexec nxc hydra "
       "medusa ncrack patator", lambda: prog(
           args="p*", raw=True, effect="scans or attacks other hosts on the network",
           dangerous=True, info="--version -V --help -h"))
define("tcpreplay tcpreplay-edit", lambda: prog(
    args="p*", raw=True, effect="sends captured packets onto the network", dangerous=True,
    info="--version -V --help -h"))
define("sshd dropbear", lambda: prog(
    args="p*", raw=True, effect="listens for connections (a remote shell server)",
    dangerous=True, info="-V --version --help -h"))
define("hurl", lambda: prog(
    args="p*", raw=True, effect="sends the HTTP requests a file lists (any method: "
    "they may change something remote)", dangerous=True, info="--version -V --help -h"))
define("GET HEAD POST PUT lwp-request", lambda: prog(args="p*", raw=True, hook="lwp",
                                                    info="--version --help -h"))
TUNNEL = "opens a tunnel: a port of this machine reachable from elsewhere, or the reverse"
define("lt localtunnel frpc frps zrok inlets sshuttle pagekite pagekite.py loclx tmole "
       "tunnelto rathole gost iodine iodined dns2tcpc dns2tcpd ptunnel ptunnel-ng stunnel "
       "openvpn tor corkscrew htc hts pwnat sish telebit pktriot ligolo-ng",
       lambda: prog(args="p*", raw=True, effect=TUNNEL, dangerous=True,
                    info="--version -v --help -h"))
define("cloudflared", lambda: prog(danger={"--url: --hello-world": TUNNEL}, args="p*", subs={
    "tunnel access": prog(args="p*", raw=True, effect=TUNNEL, dangerous=True),
    "version": prog()}, info="--version -v -V --help -h"))
define("ngrok", lambda: prog(args="p*", subs={
    "http tcp tls start tunnel": prog(args="p*", raw=True, effect=TUNNEL, dangerous=True),
    "version": prog()}, info="--version -v --help -h"))
define("devtunnel", lambda: prog(args="p*", subs={
    "host connect": prog(args="p*", raw=True, effect=TUNNEL, dangerous=True),
    "list show": prog(args="p*", raw=True, effect="lists your dev tunnels (signed in)"),
    "version": prog()}, info="--version --help -h"))
define("bore chisel", lambda: prog(args="p*", subs={
    "local client": prog(args="p*", raw=True, effect=TUNNEL, dangerous=True),
    "server": prog(args="p*", raw=True, effect="listens for connections (a tunnel server)",
                   dangerous=True)}, info="--version -V --help -h"))
define("mail mailx sendmail mutt neomutt msmtp swaks", lambda: prog(
    args="p*", raw=True, effect="sends mail", dangerous=True))
define("openssl", lambda: prog(args="p*", raw=True, hook="openssl"))
define("ssh-keygen", lambda: prog(args="p*", raw=True, hook="ssh_keygen"))
define("ssh-add", lambda: prog(args="p*", raw=True, hook="ssh_add"))
define("ssh-keyscan", lambda: prog("-46cDHv -f:r -p: -T: -t:", args="h*",
                                   hook="net_dynamic"))
# load generators: many requests at a server (a denial of service), bodies read from files
define("ab wrk hey siege vegeta oha bombardier", lambda: prog(
    args="p*", raw=True, effect="floods a server with requests", dangerous=True,
    info="--version -V --help -h"))
define("grpcurl", lambda: prog(
    args="p*", raw=True, info="-version -help",
    effect="calls gRPC services (a call can change things; headers can carry credentials)",
    dangerous=True))
