"""Grammars of container, Kubernetes, infrastructure and cloud CLIs.

Their listing and describing verbs read; anything that changes live infrastructure is
dangerous (it cannot be undone by the sandbox); options that send credentials elsewhere
(``--server``, ``--endpoint-url``, ``-H tcp://…``), load credential plugins
(``--kubeconfig``, ``--config``) or impersonate are dangerous; verbs that print secrets
(``kubectl get secret -o yaml``, ``gcloud auth print-access-token``) are dangerous. The
cloud CLIs' service/verb trees are too large to list: ``hooks_cloud.py`` admits their
read verbs (``describe-*``, ``list``…) by shape and refuses the ones that hand out secrets.
"""

from __future__ import annotations

from swebash.safety.classify.grammar import Spec, Table, definer, prog

SPECS: Table = {}
define = definer(SPECS)

LIVE = "changes live infrastructure"
# the daemon runs as another user (usually root) outside the sandbox: what it builds, runs or
# copies is out of the sandbox's reach
DAEMON = "runs code through the Docker daemon, outside the sandbox"
GONE = "deletes or stops resources"


def live(effect: str = LIVE, hook: str = "") -> Spec:
    return prog(args="p*", raw=True, effect=effect, dangerous=True, hook=hook)


def local(effect: str) -> Spec:
    return prog(args="p*", raw=True, effect=effect)


def reads(options: str = "", args: str = "p*", **kw: object) -> Spec:
    return prog(options, args=args, inherits=True, abbrev=False,
                **kw)  # type: ignore[arg-type]


FORMAT = "-f: --format: --filter: -q --quiet --no-trunc -a --all -s --size -n: --last: -l --latest"


def docker() -> Spec:
    container = {
        "ps ls list": reads(FORMAT), "logs": reads("-f -t -n: --follow --tail: --since: "
                                                   "--until: --timestamps --details"),
        "inspect": reads("-f: --format: -s --size --type:"),
        "stats": reads("-a --all --no-stream --no-trunc --format:"), "top port diff wait":
            reads(), "history": reads("-H -q --human --no-trunc --quiet --format:")}
    writes = {
        "run create": live(DAEMON, hook="docker_run"),
        "exec attach debug start restart unpause build commit import load": live(DAEMON),
        "cp": live("copies files through the Docker daemon, outside the sandbox"),
        "rm rmi kill stop prune pause": live(GONE),
        "update rename export save tag pull logout": local("changes containers, images or "
                                                           "registries"),
        "push": live("publishes an image to a registry (it can carry files out)"),
        "login": live("stores registry credentials in your home"),
    }
    return prog(
        "-D -l: --debug --log-level: --context: -c: --tls --tlsverify --tlscacert:m "
        "--tlscert:m --tlskey:r", info="--version -v --help -h version", hook="docker",
        danger={"--config:": "uses another config (credential helpers run programs)"},
        ask={"-H: --host:": "talks to another docker daemon"},
        subs={**container, **writes,
              "images": reads(FORMAT + " --digests --tree"),
              "version info": reads("-f: --format:"),
              "search": reads("--limit: -f: --filter: --format: --no-trunc"),
              "events": reads("--since: --until: -f: --filter: --format:"),
              "container": prog(subs={**container, **writes}),
              "image": prog(subs={"ls list": reads(FORMAT + " --digests --tree"),
                                  "inspect history": reads("-f: --format: -H --human "
                                                           "--no-trunc -q"),
                                  "rm prune": live(GONE),
                                  "build load import": live(DAEMON),
                                  "pull tag save": local("changes images or registries"),
                                  "push": live("publishes an image to a registry")}),
              "volume network context node service stack secret config plugin swarm": prog(
                  subs={"ls list inspect show ps": reads(FORMAT),
                        "rm prune remove": live(GONE),
                        "create connect disconnect use update install enable disable "
                        "scale rollback deploy init join leave promote demote upgrade "
                        "set push": live()}),
              "system": prog(subs={"df info": reads("-v --verbose --format:"),
                                   "events": reads("--since: --until: --filter: --format:"),
                                   "prune": live(GONE)}),
              "buildx": prog(subs={"ls version inspect du": reads("--builder:"),
                                   "prune rm": live(GONE),
                                   "build bake": prog(
                                       args="p*", raw=True, effect=DAEMON, dangerous=True,
                                       hook="image_push"),
                                   "create use stop imagetools": prog(
                                       args="p*", raw=True, effect="changes builders",
                                       hook="image_push")}),
              "compose": compose(),
              "builder": prog(subs={"build": live(DAEMON), "prune": live(GONE)}),
              "play": prog(subs={"kube": live(DAEMON)}),
              "kube": prog(subs={"play": live(DAEMON), "down": live(GONE),
                                 "generate": local("writes Kubernetes YAML")}),
              "machine": prog(subs={"list ls info inspect": reads(FORMAT),
                                    "rm reset": live(GONE),
                                    "init start stop ssh set os cp": live(
                                        "runs code in a virtual machine, outside the "
                                        "sandbox")}),
              "manifest": prog(subs={"inspect": reads("-v --verbose --insecure"),
                                     "create annotate push rm": local("changes manifests")}),
              "scout sbom init trust": local("runs a docker plugin"),
              })


def compose() -> Spec:
    return prog(
        "-p: -f:r --project-name: --file:r --profile: --env-file:r --project-directory:n "
        "--ansi: --progress: --parallel: --dry-run",
        subs={"ps ls images top port version": reads(FORMAT + " --services --status: "
                                                     "--short"),
              "logs": reads("-f -t -n: --follow --tail: --since: --until: --timestamps "
                            "--no-color --no-log-prefix"),
              "config convert": local("prints the configuration with its secrets filled in"),
              "down rm kill stop pause": live(GONE),
              "exec run up start restart create build unpause scale watch attach":
                  live(DAEMON),
              "cp": live("copies files through the Docker daemon, outside the sandbox"),
              "push": live("publishes images to a registry"),
              "pull wait events alpha": local("starts or changes containers")})


define("docker podman nerdctl finch", docker)
define("docker-compose podman-compose", compose)
CTR_LIST = "-q --quiet"
# containerd's client talks to the daemon as root: only its listings are read-only, anything
# else (run, pull, exec, rm, snapshots, content…) administers it
define("ctr", lambda: prog(
    "-n: --namespace: -a:n --address: --debug --timeout: --connect-timeout:",
    admin=True, info="--version -v --help -h version",
    subs={"images image i": prog(subs={"ls list": reads(CTR_LIST)}),
          "containers container c": prog(subs={"ls list": reads(CTR_LIST)}),
          "tasks task t": prog(subs={"ls list": reads(CTR_LIST)}),
          "namespaces namespace ns": prog(subs={"ls list": reads(CTR_LIST)}),
          "version": reads()}))
define("crictl", lambda: prog(
    "-r: --runtime-endpoint: -i: --image-endpoint: --timeout: -D --debug",
    subs={"ps images img pods inspect inspecti inspectp logs info version stats statsp "
          "imagefsinfo config": reads(FORMAT + " -o: --output: -v --verbose --tail: "
                                      "--since: --timestamps"),
          "rm rmi rmp stop stopp": live(GONE),
          "exec attach run runp create start port-forward pull update": live()}))
KUBE_GLOBAL = ("-n: --namespace: --context: --cluster: --user: -v: --v: --request-timeout: "
               "--cache-dir:n --match-server-version --profile: --profile-output: "
               "--log-flush-frequency: --warnings-as-errors --disable-compression "
               "--tls-server-name: --insecure-skip-tls-verify --vmodule: --one-output "
               "--logtostderr --alsologtostderr")
KUBE_DANGER = {"-s:u --server:u --token: --kubeconfig: --as: --as-group: --as-uid: "
               "--username: --password: --client-key:r --client-certificate:r "
               "--certificate-authority:r --exec-command:":
               "talks to another cluster or acts as someone else with your credentials"}
KUBE_OUT = ("-o: --output: -l: --selector: --field-selector: -A --all-namespaces "
            "--show-labels -L: --label-columns: --sort-by: --no-headers --chunk-size: "
            "--ignore-not-found -w --watch --watch-only --output-watch-events "
            "--server-print --show-kind --show-managed-fields -f:r --filename:r -k:n "
            "--kustomize:n -R --recursive --subresource: --template: "
            "--allow-missing-template-keys")


def kubectl() -> Spec:
    def kread(options: str = "", hook: str = "",
              danger: dict[str, str] | None = None) -> Spec:
        return prog(options, args="p*", inherits=True, abbrev=False, hook=hook,
                    danger=danger)
    return prog(
        KUBE_GLOBAL, abbrev=False, danger=KUBE_DANGER, info="--help -h version",
        subs={"get": kread(KUBE_OUT + " --raw:", hook="kubectl_get"),
              "describe": kread("-l: --selector: -A --all-namespaces --show-events: "
                                "--chunk-size: -f:r --filename:r -k:n -R"),
              "logs": kread("-f --follow -c: --container: -p --previous --tail: --since: "
                            "--since-time: --timestamps --all-containers -l: --selector: "
                            "--prefix --max-log-requests: --limit-bytes: "
                            "--pod-running-timeout: --ignore-errors --all-pods"),
              "top": kread("--containers --sort-by: -l: --selector: --no-headers "
                           "--use-protocol-buffers -A --all-namespaces --sum "
                           "--show-capacity"),
              "explain": kread("--recursive --api-version: -o: --output:"),
              "api-resources api-versions": kread("-o: --output: --namespaced: "
                                                  "--api-group: --verbs: --sort-by: "
                                                  "--cached --no-headers --categories:"),
              "cluster-info": prog(subs={"dump": local("dumps cluster state (logs, "
                                                       "objects)")},
                                   inherits=True, verb_optional=True),
              "version": kread("--client --short -o: --output:"),
              "events": kread("--for: --types: -w --watch -A --all-namespaces -o: "
                              "--output: --no-headers --chunk-size:"),
              "wait": kread("--for: --timeout: -l: --selector: --all -A "
                            "--all-namespaces -f:r --field-selector: -o:"),
              "kustomize": kread("--enable-helm", danger={
                  "--load-restrictor:": "lets the kustomization read files outside its "
                                        "directory"}),
              "completion options plugin": kread(),
              "config": prog(subs={
                  "view": kread("--minify -o: --output: --merge: --raw --flatten",
                                hook="kubectl_config_view"),
                  "get-contexts get-clusters get-users current-context": kread(
                      "-o: --output: --no-headers"),
                  "use-context use set-context set-cluster set-credentials set unset "
                  "rename-context delete-context delete-cluster delete-user": local(
                      "changes your kubeconfig")}, inherits=True),
              "auth": prog(subs={"can-i": kread("--list -A --all-namespaces --quiet -q "
                                                "--subresource: --no-headers"),
                                 "whoami": kread("-o: --output:"),
                                 "reconcile": live()}, inherits=True),
              "rollout": prog(subs={"status history": kread("-w --watch --timeout: "
                                                            "--revision: -o: -l:"),
                                    "restart undo pause resume": live()}, inherits=True),
              "diff": local("compares with the cluster through an external diff program"),
              "port-forward": live("opens a local port into the cluster"),
              "proxy": prog("--address: --accept-hosts: --port: -p: --www:n --api-prefix: "
                            "--disable-filter --reject-paths: --unix-socket:", inherits=True,
                            hook="kubectl_proxy",
                            effect="serves the cluster's API on a local port",
                            dangerous=True),
              "exec attach debug run cp": live("runs a command or copies files in the "
                                               "cluster"),
              "delete drain scale autoscale": live(GONE),
              "create apply edit patch replace expose set label annotate taint cordon "
              "uncordon certificate token": live(),
              "krew": prog(subs={"list search info version": reads(),
                                 "install upgrade uninstall update index": live(
                                     "installs kubectl plugins (they run as kubectl)")}),
              })


define("kubectl oc kubecolor", kubectl)
define("helm", lambda: prog(
    "-n: --namespace: --kube-context: --debug --registry-config:r --repository-config:r "
    "--repository-cache:n --burst-limit: --qps: --kube-insecure-skip-tls-verify "
    "--kube-tls-server-name:", info="--help -h version",
    danger={"--kubeconfig: --kube-apiserver: --kube-token: --kube-as-user: --kube-as-group: "
            "--kube-ca-file:r": "talks to another cluster or acts as someone else"},
    subs={"list ls": reads("-a -A -q -r -d -m: -o: -l: --all --all-namespaces --short "
                           "--date --reverse --max: --offset: --filter: --deployed --failed "
                           "--pending --uninstalled --superseded --uninstalling --selector: "
                           "--time-format: --no-headers --output:"),
          "status": reads("-o: --output: --revision: --show-desc --show-resources"),
          "history hist": reads("-o: --output: --max:"),
          "version": reads("--short --template: --client"),
          "search": prog(subs={"hub repo": reads("--regexp -r --versions -l --devel "
                                                 "--version: -o: --output: "
                                                 "--max-col-width: --list-repo-url "
                                                 "--fail-on-no-result --endpoint:")}),
          "show inspect": prog(subs={"all chart readme values crds": reads(
              "--version: --repo: --devel --jsonpath: --username: --password: "
              "--insecure-skip-tls-verify --keyring:r --verify --ca-file:r")}),
          "env": reads(), "lint": reads("--strict --quiet --with-subcharts -f:r --values:r "
                                        "--set: --set-string: --kube-version:"),
          "template": reads("-f:r --values:r --set: --set-string: --set-json: --set-file:r "
                            "--version: --repo: -n: --namespace: --include-crds "
                            "--skip-crds --skip-tests --api-versions: --kube-version: "
                            "--show-only: -s: --validate --is-upgrade --release-name "
                            "--name-template: --devel -g "
                            "--generate-name --description:",
                            danger={"--post-renderer: --post-renderer-args:":
                                    "runs the program it is given"}),
          "repo": prog(subs={"list ls": reads("-o: --output:"),
                             "add update up remove rm index": local("changes chart "
                                                                    "repositories")}),
          "dependency dep": prog(subs={"list ls": reads("--max-col-width:"),
                                       "update up build": local("downloads charts")}),
          "plugin": prog(subs={"list ls": reads(),
                               "install add update up uninstall rm": live(
                                   "installs a plugin (its hooks run programs)")}),
          "get": prog(subs={"all values manifest notes hooks metadata": local(
              "prints a release's values, which may hold secrets")}),
          "verify": reads("--keyring:r"),
          "uninstall delete del un rollback": live(GONE),
          "install upgrade test": live(),
          "pull fetch package push registry create": local("downloads, packages or "
                                                           "publishes charts")}))
TF_GLOBAL = "-chdir:n -help -version"


def terraform() -> Spec:
    def tread(options: str = "", args: str = "p*", hook: str = "") -> Spec:
        return prog(options, args=args, single=True, inherits=True, hook=hook)
    return prog(
        TF_GLOBAL, single=True, info="-version --version version -v -help --help",
        subs={"version": tread("-json"),
              "validate": local("loads the providers (they are programs and run)"),
              "fmt": tread("-check -diff -recursive -list: -no-color",
                           hook="terraform_fmt"),
              "providers": local("loads the configuration and its providers (they run)"),
              "graph": local("loads the configuration and its providers (they run)"),
              "state": prog(subs={"list": tread("-state:r -id:"),
                                  "show": local("prints a resource's attributes from the "
                                                "state (they may hold secrets)"),
                                  "pull": live("prints the whole state with its secrets"),
                                  "rm mv push replace-provider": live("rewrites the "
                                                                      "state")},
                            single=True),
              "workspace": prog(subs={"list show": tread(),
                                      "new select": local("switches workspaces"),
                                      "delete": live(GONE)}, single=True),
              "output": prog("-no-color -state:r", single=True, args="p?", inherits=True,
                             danger={"-json -raw": "prints sensitive outputs in full"}),
              "metadata": prog(subs={"functions": tread("-json")}, single=True),
              "show": local("prints the state or a plan (secrets with -json)"),
              "console": live("evaluates expressions (they can read files)"),
              "plan": local("runs the providers and data sources (they can run programs)"),
              "init get login logout test modules": local("downloads providers or modules "
                                                          "or runs tests"),
              "apply destroy import taint untaint refresh force-unlock": live(),
              })


define("terraform tofu terragrunt", terraform)
define("pulumi", lambda: prog(
    "-C:n --cwd:n -s: --stack: --color: --non-interactive -v: --verbose: --logtostderr",
    info="version --version --help -h",
    subs={"version whoami about": reads("-j --json -v --verbose"),
          "stack": prog(subs={"ls list": reads("-a --all -j --json -o: --organization: "
                                               "-p: --project: -t: --tag:"),
                              "output": reads("-j --json --shell", hook="pulumi_output"),
                              "history": reads("-j --json --full-dates --page: "
                                               "--page-size:"),
                              "select init rename tag export import graph change-secrets-"
                              "provider unselect": local("changes stacks"),
                              "rm": live(GONE)}, inherits=True, verb_optional=True),
          "config": reads("-j --json --path", hook="pulumi_config"),
          "plugin": prog(subs={"ls": reads("-j --json --project")}),
          "logs": reads("-f --follow -j --json --since: -r: --resource:"),
          "preview pre": local("runs the program that describes the stack"),
          "up update destroy down refresh import cancel state watch": live()}))
define("ansible ansible-playbook ansible-pull ansible-console", lambda: prog(
    args="p*", raw=True, effect=LIVE, dangerous=True, info="--version --help -h"))
define("ansible-doc", lambda: prog("-l -F -s -j -v -t: -M:n --list --list_files --snippet "
                                   "--json --type: --module-path:n", args="p*"))
define("ansible-config", lambda: prog("-c:r --config:r -t: --type: --format: --only-changed",
                                      subs={"dump list view": reads()}))
define("ansible-galaxy", lambda: prog(subs={
    "list": reads("-p:n --roles-path:n --format:"),
    "collection role": prog(subs={"list": reads("-p:n --format:"),
                                  "install download init build publish import remove "
                                  "delete": local("installs or publishes content")})}))
define("ansible-vault", lambda: prog(args="p*", raw=True, effect="reads or changes encrypted "
                                     "secrets", dangerous=True))
define("ansible-inventory ansible-lint", lambda: prog(
    args="p*", raw=True, effect="loads the inventory or rules (inventory scripts run)",
    info="--version --help -h"))
# every vagrant command loads the project's Vagrantfile, which is Ruby code
define("vagrant", lambda: prog(subs={
    "status global-status version ssh-config port box validate": local(
        "loads the project's Vagrantfile (Ruby code runs)"),
    "destroy": live(GONE),
    "plugin": live("installs or changes vagrant plugins (they run as vagrant)"),
    "up halt reload provision ssh suspend resume snapshot": live(
        "runs code in a virtual machine, outside the sandbox"),
    "package init": local("packages or creates a machine")}, info="--version -v --help -h"))
define("packer", lambda: prog(subs={
    "version": reads(), "validate inspect": reads("-syntax-only -var: -var-file:r -only: "
                                                  "-except: -machine-readable", single=True),
    "fmt": prog("-check -diff -recursive -write: -list:", single=True, args="p*",
                hook="terraform_fmt", inherits=True),
    "build init plugins console": local("builds images or runs provisioners")},
    info="--version -v --help -h version"))
define("aws awslocal", lambda: prog(args="p*", raw=True, hook="aws",
                                    info="--version --help help"))
define("gcloud", lambda: prog(args="p*", raw=True, hook="gcloud",
                              info="--version version --help help"))
define("gsutil", lambda: prog(args="p*", raw=True, hook="gsutil", info="version --version"))
define("az", lambda: prog(args="p*", raw=True, hook="az", info="--version version --help"))
define("doctl linode-cli hcloud scw flyctl fly heroku vercel netlify eksctl oci ibmcloud "
       "aliyun railway supabase firebase", lambda: prog(
           args="p*", raw=True, hook="cloud_generic", info="--version version -v --help"))
define("kind minikube k3d", lambda: prog(args="p*", raw=True, hook="cloud_generic",
                                         info="--version version --help"))
define("k9s lazydocker", lambda: prog(args="p*", raw=True,
                                      effect="an interactive cluster console"))
