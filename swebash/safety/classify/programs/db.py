"""Grammars of database clients: a query given on the command line passes only when the SQL
reader (``sql.py``) finds it read-only; with no query the client reads one from its input or
opens an interactive session (asks). Options that write files, set a pager or read a config
or script file ask."""

from __future__ import annotations

from swebash.safety.classify.grammar import Table, definer, prog

SPECS: Table = {}
define = definer(SPECS)

WRITES = "writes its output to a file"
SQLITE = ("-header -noheader -column -csv -json -line -list -html -markdown -table -box "
          "-ascii -tabs -quote -separator: -newline: -nullvalue: -readonly -safe -bail "
          "-batch -echo -stats -memtrace -mmap: -nofollow -deserialize -append -lookaside: "
          "-pagecache: -vfs: -maxsize: -utf8 -utf16 -escape: -cmd: -version -help")
define("sqlite3 sqlite", lambda: prog(
    SQLITE, single=True, args="r? p*", hook="sqlite",
    ask={"-init:r": "runs SQL from a file", "-interactive": "an interactive session",
         "-zip -A: -archive:": "opens an archive"}))
define("psql", lambda: prog(
    "-lAtxqeaEXnsS1wWz0H -c: -d: -h:h -p: -U: -P: -F: -R: -T: -v: --command: --dbname: "
    "--host:h --port: --username: --list --no-password --password --no-align "
    "--tuples-only --expanded --quiet --echo-queries --echo-all --echo-hidden --no-psqlrc "
    "--single-step --single-line --single-transaction --pset: --field-separator: "
    "--record-separator: --table-attr: --set: --variable: --csv --html "
    "--field-separator-zero --record-separator-zero", args="p? p?", hook="psql",
    ask={"-f:r --file:r": "runs SQL from a file",
         "-L:w --log-file:w -o:w --output:w": WRITES}))
define("mysql mariadb", lambda: prog(
    "-BNtsrHXvEAnqfCcG -e: -u: -p:: -P: -D: -S: -h:h --execute: --user: --password:: "
    "--port: --database: --socket: --host:h --batch --skip-column-names --table --silent "
    "--raw --html --xml --verbose --vertical --no-auto-rehash --auto-rehash "
    "--connect-timeout: --default-character-set: --protocol: --ssl-mode: --ssl-ca:m "
    "--ssl-cert:m --ssl-key:r --compress --force --comments --column-names "
    "--column-type-info --line-numbers --no-beep --quick --reconnect --safe-updates "
    "--i-am-a-dummy --show-warnings --sigint-ignore --unbuffered --wait --binary-mode "
    "--init-command: --no-defaults --print-defaults", args="p?", hook="mysql",
    danger={"--pager:: --tee:w --system-command --plugin-dir: --load-data-local-dir: "
            "--local-infile::": "runs a pager, writes a log or reads local files",
            "--default-auth: --plugin-load: --plugin-load-add:": "loads the plugin library "
            "it is given",
            "--defaults-file:r --defaults-extra-file:r --defaults-group-suffix:":
            "reads options from a file"}))
define("mysqldump mariadb-dump pg_dump pg_dumpall mongodump", lambda: prog(
    args="p*", raw=True, effect="dumps a whole database"))
define("pg_isready", lambda: prog("-d: -h:h -p: -q -t: -U: --dbname: --host:h --port: "
                                  "--quiet --timeout: --username:"))
define("redis-cli valkey-cli keydb-cli", lambda: prog(
    "-h:h -p: -s: -u:u -n: -r: -i: -d: -D: -c -e -x -3 -2 --user: --askpass "
    "--raw --no-raw --quoted-input --csv --json --quoted-json --show-pushes: --stat "
    "--latency --latency-history --latency-dist --bigkeys --memkeys --memkeys-samples: "
    "--keystats --hotkeys --scan --pattern: --count: --quoted-pattern: --intrinsic-latency: "
    "--tls --sni: --cacert:m --cacertdir:n --insecure --tls-ciphers: --cert:m --key:r "
    "--verbose --no-auth-warning --cluster-only-masters --cluster-only-replicas",
    args="p*", hook="redis",
    danger={"-a: --pass:": "sends a password written on the command line"},
    ask={"--rdb:w --functions-rdb:w --pipe --pipe-timeout: --replica --lru-test: "
         "--eval:r --ldb --ldb-sync-mode --cluster:": "runs scripts, replicates or "
                                                     "writes dumps"}))
define("mongosh mongo", lambda: prog(
    "--quiet --norc --nodb --host:h --port: -u: --username: "
    "--authenticationDatabase: --authenticationMechanism: --tls --tlsCAFile:m "
    "--tlsCertificateKeyFile:r --json:: --shell --verbose --apiVersion: --eval:",
    args="p*", hook="mongo", danger={"-f: --file:": "runs a script file",
                                     "-p: --password:": "sends a password written on the "
                                                        "command line"}))
define("duckdb", lambda: prog(
    "-readonly -csv -json -line -list -markdown -table -box -header -noheader -batch "
    "-bail -echo -separator: -nullvalue: -unsigned -version -help -s: -c:", single=True,
    args="r? p*", hook="sqlite", ask={"-init:r": "runs SQL from a file"}))
define("clickhouse-client clickhouse", lambda: prog(
    "-q: --query: -h:h --host:h --port: -u: --user: --password: -d: --database: "
    "--format: -f: --multiline -m --multiquery -n --time -t --stacktrace --secure -s",
    args="p*", hook="clickhouse"))
define("cqlsh", lambda: prog("-e: --execute: -u: -p: -k: --keyspace: --ssl --no-color "
                             "--color -C --cqlversion: --protocol-version: --connect-timeout: "
                             "--request-timeout:", args="h? p?", hook="cqlsh",
                             ask={"-f:r --file:r": "runs CQL from a file"}))
define("createdb createuser", lambda: prog(args="p*", raw=True,
                                           effect="creates a database or a role"))
define("dropdb dropuser", lambda: prog(args="p*", raw=True,
                                       effect="drops a database or a role", dangerous=True))
