// Command releasecheck checks that the release files agree with each other
// and with the provider, so that a tag would release what the Terraform
// Registry expects (scripts/release-check.sh runs it in `make checks`,
// before `goreleaser check`):
//
//   - the registry manifest is version 1 and lists the protocol main.go
//     serves (6.0 for providerserver.NewProtocol6);
//   - .goreleaser.yml builds terraform-provider-pipeline_v{{.Version}}
//     without cgo, with main.version stamped, for the registry's platforms,
//     into zips named NAME_{{.Version}}_{{.Os}}_{{.Arch}}, with a SHA256SUMS
//     file that GPG signs and the manifest beside it;
//   - the release workflow runs on tags v*, imports the GPG key whose
//     fingerprint GoReleaser signs with, and runs the GoReleaser version
//     scripts/gotool.sh builds for the check;
//   - the workflows name files and make targets that exist, and the test
//     workflow's matrix runs the Terraform and OpenTofu versions make test
//     runs (tools/*/go.mod pins; the oldest is the one its checks use).
//
// Usage:
//
//	go run ./scripts/releasecheck [-root DIR]
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"

	"gopkg.in/yaml.v3"
)

func main() {
	root := flag.String("root", ".", "the repository's root")
	flag.Parse()
	r := check(*root)
	for _, w := range r.warnings {
		fmt.Fprintln(os.Stderr, "releasecheck: warning:", w)
	}
	if len(r.problems) > 0 {
		for _, p := range r.problems {
			fmt.Fprintln(os.Stderr, "releasecheck:", p)
		}
		os.Exit(1)
	}
	fmt.Println("releasecheck: ok:", strings.Join(r.summary, "; "))
}

// report is what check found: problems fail, warnings are said.
type report struct {
	problems, warnings, summary []string
}

func (r *report) fail(format string, args ...any) {
	r.problems = append(r.problems, fmt.Sprintf(format, args...))
}

// Names the registry and the workflows rely on.
const (
	manifestFile   = "terraform-registry-manifest.json"
	goreleaserFile = ".goreleaser.yml"
	releaseFlow    = ".github/workflows/release.yml"
	testFlow       = ".github/workflows/test.yml"
	// The templates the registry's layout needs, spaces inside {{ }} aside.
	binaryTemplate   = "{{.ProjectName}}_v{{.Version}}"
	archiveTemplate  = "{{.ProjectName}}_{{.Version}}_{{.Os}}_{{.Arch}}"
	sumsTemplate     = "{{.ProjectName}}_{{.Version}}_SHA256SUMS"
	manifestTemplate = "{{.ProjectName}}_{{.Version}}_manifest.json"
)

// registryPlatforms are the platforms every release must have: those
// Terraform and OpenTofu publish their own CLIs for, which users run.
var registryPlatforms = []string{
	"darwin_amd64", "darwin_arm64",
	"freebsd_386", "freebsd_amd64", "freebsd_arm",
	"linux_386", "linux_amd64", "linux_arm", "linux_arm64",
	"windows_386", "windows_amd64",
}

func check(root string) *report {
	r := &report{}
	read := func(name string) []byte {
		b, err := os.ReadFile(filepath.Join(root, name)) //nolint:gosec // G304: the repository's own files
		if err != nil {
			r.fail("%s: %v", name, err)
		}
		return b
	}
	module := modulePath(read("go.mod"))
	name := "terraform-provider-" + strings.TrimPrefix(pathBase(module), "terraform-provider-")

	checkManifest(r, read(manifestFile), read("main.go"))
	gpgVar := checkGoreleaser(r, root, read(goreleaserFile), read("main.go"), name, module)
	checkRelease(r, read(releaseFlow), read("scripts/gotool.sh"), gpgVar)
	for _, flow := range []string{releaseFlow, testFlow} {
		checkReferences(r, root, flow, read(flow), read("GNUmakefile"))
	}
	checkMatrix(r, read(testFlow), read("tools/terraform/go.mod"), read("tools/opentofu/go.mod"))
	return r
}

// checkManifest: version 1, and the protocol main.go serves.
func checkManifest(r *report, manifest, mainGo []byte) {
	var m struct {
		Version  int `json:"version"`
		Metadata struct {
			ProtocolVersions []string `json:"protocol_versions"`
		} `json:"metadata"`
	}
	if err := json.Unmarshal(manifest, &m); err != nil {
		r.fail("%s: %v", manifestFile, err)
		return
	}
	if m.Version != 1 {
		r.fail("%s: version %d, the registry reads version 1", manifestFile, m.Version)
	}
	served := regexp.MustCompile(`providerserver\.NewProtocol(\d)`).FindSubmatch(mainGo)
	if served == nil {
		r.fail("main.go: no providerserver.NewProtocolN: which protocol does the provider serve?")
		return
	}
	want := string(served[1]) + ".0"
	if !slices.Equal(m.Metadata.ProtocolVersions, []string{want}) {
		r.fail("%s: protocol_versions %q, but main.go serves protocol %s: want [%q]", manifestFile, m.Metadata.ProtocolVersions, served[1], want)
		return
	}
	r.summary = append(r.summary, "manifest protocol "+want+" as main.go serves")
}

// goreleaserConfig is the part of .goreleaser.yml the registry depends on.
type goreleaserConfig struct {
	Version     int    `yaml:"version"`
	ProjectName string `yaml:"project_name"`
	Builds      []struct {
		Env     []string `yaml:"env"`
		Flags   []string `yaml:"flags"`
		Ldflags []string `yaml:"ldflags"`
		Goos    []string `yaml:"goos"`
		Goarch  []string `yaml:"goarch"`
		Ignore  []struct {
			Goos   string `yaml:"goos"`
			Goarch string `yaml:"goarch"`
		} `yaml:"ignore"`
		Binary string `yaml:"binary"`
	} `yaml:"builds"`
	Archives []struct {
		Formats      []string `yaml:"formats"`
		NameTemplate string   `yaml:"name_template"`
	} `yaml:"archives"`
	Checksum struct {
		NameTemplate string      `yaml:"name_template"`
		Algorithm    string      `yaml:"algorithm"`
		ExtraFiles   []extraFile `yaml:"extra_files"`
	} `yaml:"checksum"`
	Signs []struct {
		Artifacts string   `yaml:"artifacts"`
		Args      []string `yaml:"args"`
	} `yaml:"signs"`
	Release struct {
		GitHub struct {
			Owner string `yaml:"owner"`
			Name  string `yaml:"name"`
		} `yaml:"github"`
		ExtraFiles []extraFile `yaml:"extra_files"`
	} `yaml:"release"`
}

type extraFile struct {
	Glob         string `yaml:"glob"`
	NameTemplate string `yaml:"name_template"`
}

// checkGoreleaser checks the build, archives, checksums, signature and
// manifest; it returns the environment variable the signature's key comes
// from.
func checkGoreleaser(r *report, root string, text, mainGo []byte, name, module string) (gpgVar string) {
	var c goreleaserConfig
	if err := yaml.Unmarshal(text, &c); err != nil {
		r.fail("%s: %v", goreleaserFile, err)
		return ""
	}
	f := func(format string, args ...any) { r.fail(goreleaserFile+": "+format, args...) }
	if c.Version != 2 {
		f("version %d; this check and the pinned GoReleaser know version 2", c.Version)
	}
	if c.ProjectName != name {
		f("project_name %q, want %q: the registry finds the files by it", c.ProjectName, name)
	}
	if len(c.Builds) != 1 {
		f("%d builds, want the provider's one", len(c.Builds))
		return ""
	}
	b := c.Builds[0]
	if !slices.Contains(b.Env, "CGO_ENABLED=0") {
		f("the build does not set CGO_ENABLED=0: Terraform runs the binary on machines without the C libraries")
	}
	if !slices.Contains(b.Flags, "-trimpath") {
		f("the build has no -trimpath")
	}
	if !strings.Contains(squeeze(strings.Join(b.Ldflags, " ")), "-Xmain.version={{.Version}}") {
		f("ldflags do not stamp -X main.version={{ .Version }}")
	} else if !regexp.MustCompile(`(?m)^var version\b`).Match(mainGo) {
		f("ldflags stamp main.version, which main.go does not declare")
	}
	if squeeze(b.Binary) != binaryTemplate {
		f("binary %q, want %q: Terraform runs terraform-provider-NAME_vVERSION", b.Binary, binaryTemplate)
	}
	built := map[string]bool{}
	for _, goos := range b.Goos {
		for _, goarch := range b.Goarch {
			built[goos+"_"+goarch] = true
		}
	}
	for _, ig := range b.Ignore {
		delete(built, ig.Goos+"_"+ig.Goarch)
	}
	var missing []string
	for _, p := range registryPlatforms {
		if !built[p] {
			missing = append(missing, p)
		}
	}
	if len(missing) > 0 {
		f("no build for %s", strings.Join(missing, ", "))
	}

	if len(c.Archives) != 1 {
		f("%d archives, want one zip per platform", len(c.Archives))
	} else {
		a := c.Archives[0]
		if !slices.Equal(a.Formats, []string{"zip"}) {
			f("archive formats %q, the registry wants [zip]", a.Formats)
		}
		if squeeze(a.NameTemplate) != archiveTemplate {
			f("archive name_template %q, want %q", a.NameTemplate, archiveTemplate)
		}
	}
	if squeeze(c.Checksum.NameTemplate) != sumsTemplate || c.Checksum.Algorithm != "sha256" {
		f("checksum %q (%s), want %q (sha256)", c.Checksum.NameTemplate, c.Checksum.Algorithm, sumsTemplate)
	}
	for what, files := range map[string][]extraFile{"checksum": c.Checksum.ExtraFiles, "release": c.Release.ExtraFiles} {
		if !slices.ContainsFunc(files, func(e extraFile) bool {
			return e.Glob == manifestFile && squeeze(e.NameTemplate) == manifestTemplate
		}) {
			f("%s.extra_files lacks %s as %q", what, manifestFile, manifestTemplate)
		}
		for _, e := range files {
			if m, _ := filepath.Glob(filepath.Join(root, e.Glob)); len(m) == 0 {
				f("%s.extra_files: nothing matches %q", what, e.Glob)
			}
		}
	}
	if len(c.Signs) != 1 || c.Signs[0].Artifacts != "checksum" {
		f("signs: want one signature, of the checksum file")
	} else {
		args := c.Signs[0].Args
		i := slices.Index(args, "--local-user")
		m := []string(nil)
		if i >= 0 && i+1 < len(args) {
			m = regexp.MustCompile(`^\{\{\s*\.Env\.(\w+)\s*\}\}$`).FindStringSubmatch(args[i+1])
		}
		if !slices.Contains(args, "--detach-sign") || !slices.Contains(args, "--batch") || m == nil {
			f("signs.args: want gpg --batch --local-user {{ .Env.VAR }} --detach-sign")
		} else {
			gpgVar = m[1]
		}
	}
	owner, repo, _ := strings.Cut(strings.TrimPrefix(module, "github.com/"), "/")
	if c.Release.GitHub.Owner != owner || c.Release.GitHub.Name != repo {
		f("release.github %s/%s, want %s/%s as the module path says", c.Release.GitHub.Owner, c.Release.GitHub.Name, owner, repo)
	}
	r.summary = append(r.summary, fmt.Sprintf("%d platforms into %s.zip, %s signed, manifest beside",
		len(built), strings.ReplaceAll(archiveTemplate, "{{.ProjectName}}", name), strings.ReplaceAll(sumsTemplate, "{{.ProjectName}}", name)))
	return gpgVar
}

// workflow is the part of a GitHub workflow this check reads.
type workflow struct {
	On struct {
		Push struct {
			Tags []string `yaml:"tags"`
		} `yaml:"push"`
	} `yaml:"on"`
	Permissions map[string]string `yaml:"permissions"`
	Jobs        map[string]job    `yaml:"jobs"`
}

type job struct {
	Strategy struct {
		Matrix struct {
			Include []map[string]string `yaml:"include"`
		} `yaml:"matrix"`
	} `yaml:"strategy"`
	Steps []step `yaml:"steps"`
}

type step struct {
	ID   string            `yaml:"id"`
	If   string            `yaml:"if"`
	Uses string            `yaml:"uses"`
	Run  string            `yaml:"run"`
	With map[string]string `yaml:"with"`
	Env  map[string]string `yaml:"env"`
}

func parseWorkflow(r *report, name string, text []byte) *workflow {
	var w workflow
	if err := yaml.Unmarshal(text, &w); err != nil {
		r.fail("%s: %v", name, err)
		return nil
	}
	return &w
}

// checkRelease: tags v*, the GPG key GoReleaser signs with, the GoReleaser
// version scripts/gotool.sh builds for the check.
func checkRelease(r *report, text, script []byte, gpgVar string) {
	w := parseWorkflow(r, releaseFlow, text)
	if w == nil {
		return
	}
	f := func(format string, args ...any) { r.fail(releaseFlow+": "+format, args...) }
	if !slices.Contains(w.On.Push.Tags, "v*") {
		f("does not run on tags v* (on.push.tags: %q)", w.On.Push.Tags)
	}
	if w.Permissions["contents"] != "write" {
		f("permissions.contents is %q; creating a release needs write", w.Permissions["contents"])
	}
	pin := regexp.MustCompile(`(?m)^goreleaser\)\s*pkg=\S+\s+version=(v[0-9.]+)`).FindSubmatch(script)
	var gpgID string
	var releaser *step
	for _, j := range w.Jobs {
		for i, s := range j.Steps {
			switch {
			case strings.HasPrefix(s.Uses, "crazy-max/ghaction-import-gpg@"):
				gpgID = s.ID
			case strings.HasPrefix(s.Uses, "goreleaser/goreleaser-action@"):
				releaser = &j.Steps[i]
			case strings.HasPrefix(s.Uses, "actions/checkout@") && s.With["fetch-depth"] != "0":
				f("the checkout has no fetch-depth: 0; GoReleaser reads the previous tags")
			}
		}
	}
	switch {
	case releaser == nil:
		f("no goreleaser/goreleaser-action step")
	case gpgID == "":
		f("no crazy-max/ghaction-import-gpg step with an id: nothing imports the signing key")
	default:
		if args := strings.Fields(releaser.With["args"]); !slices.Contains(args, "release") || !slices.Contains(args, "--clean") {
			f("GoReleaser runs %q, want release --clean", releaser.With["args"])
		}
		if want := "${{ steps." + gpgID + ".outputs.fingerprint }}"; gpgVar == "" || releaser.Env[gpgVar] != want {
			f("GoReleaser's env %s is %q, want %q: %s signs with the key it names", gpgVar, releaser.Env[gpgVar], want, goreleaserFile)
		}
		if pin == nil || releaser.With["version"] != string(pin[1]) {
			f("GoReleaser version %q, but scripts/gotool.sh builds %s for the check", releaser.With["version"], pin)
		}
	}
	if pin != nil {
		r.summary = append(r.summary, "release on tags v* with GoReleaser "+string(pin[1]))
	}
}

// checkReferences: every file a workflow names (go-version-file, scripts/…)
// exists and every make target it runs is the GNUmakefile's.
func checkReferences(r *report, root, name string, text, makefile []byte) {
	var doc any
	if err := yaml.Unmarshal(text, &doc); err != nil {
		return // parseWorkflow says so
	}
	targets := map[string]bool{}
	for _, m := range regexp.MustCompile(`(?m)^([A-Za-z0-9_.-]+):`).FindAllSubmatch(makefile, -1) {
		targets[string(m[1])] = true
	}
	scriptRef := regexp.MustCompile(`(?:^|[\s"'=])(?:\./)?(scripts/[A-Za-z0-9_./-]*[A-Za-z0-9_])`)
	makeRef := regexp.MustCompile(`\bmake\s+([a-z][a-z0-9_-]*)`)
	seen := map[string]bool{}
	walkStrings(doc, "", func(key, s string) {
		var refs []string
		if key == "go-version-file" {
			refs = append(refs, s)
		}
		for _, m := range scriptRef.FindAllStringSubmatch(s, -1) {
			refs = append(refs, m[1])
		}
		for _, ref := range refs {
			if _, err := os.Stat(filepath.Join(root, ref)); err != nil && !seen[ref] {
				r.fail("%s: names %s, which does not exist", name, ref)
			}
			seen[ref] = true
		}
		for _, m := range makeRef.FindAllStringSubmatch(s, -1) {
			if !targets[m[1]] && !seen["make "+m[1]] {
				r.fail("%s: runs make %s, which GNUmakefile does not define", name, m[1])
			}
			seen["make "+m[1]] = true
		}
	})
}

// walkStrings calls fn with every string in a decoded YAML document and the
// key it is the value of ("" in a list).
func walkStrings(v any, key string, fn func(key, s string)) {
	switch x := v.(type) {
	case string:
		fn(key, x)
	case map[string]any:
		for k, e := range x {
			walkStrings(e, k, fn)
		}
	case []any:
		for _, e := range x {
			walkStrings(e, key, fn)
		}
	}
}

// checkMatrix: the test workflow runs the newest Terraform and the OpenTofu
// that tools/ pins, and its oldest Terraform is the one its checks run with.
func checkMatrix(r *report, text, tfMod, tofuMod []byte) {
	w := parseWorkflow(r, testFlow, text)
	if w == nil {
		return
	}
	f := func(format string, args ...any) { r.fail(testFlow+": "+format, args...) }
	versions := map[string][]string{} // tool: versions of the matrix
	var checksTF []string             // Terraform versions set up outside a matrix
	for _, j := range w.Jobs {
		for _, e := range j.Strategy.Matrix.Include {
			versions[e["tool"]] = append(versions[e["tool"]], e["version"])
		}
		for _, s := range j.Steps {
			if v := s.With["terraform_version"]; strings.HasPrefix(s.Uses, "hashicorp/setup-terraform@") && !strings.Contains(v, "${{") {
				checksTF = append(checksTF, v)
			}
		}
	}
	pinned := func(mod []byte, path string) string {
		m := regexp.MustCompile(`(?m)^\s*` + regexp.QuoteMeta(path) + `\s+v(\S+)`).FindSubmatch(mod)
		if m == nil {
			return ""
		}
		return string(m[1])
	}
	newest, tofu := pinned(tfMod, "github.com/hashicorp/terraform"), pinned(tofuMod, "github.com/opentofu/opentofu")
	if newest == "" || tofu == "" {
		f("cannot read the Terraform and OpenTofu versions tools/terraform/go.mod and tools/opentofu/go.mod pin")
		return
	}
	if !slices.Contains(versions["terraform"], newest) {
		f("the matrix does not run Terraform %s, the newest make test runs (tools/terraform/go.mod); it runs %q", newest, versions["terraform"])
	}
	if !slices.Equal(versions["tofu"], []string{tofu}) {
		f("the matrix runs OpenTofu %q, make test runs %s (tools/opentofu/go.mod)", versions["tofu"], tofu)
	}
	tf := slices.Clone(versions["terraform"])
	sort.Slice(tf, func(i, j int) bool { return lessVersion(tf[i], tf[j]) })
	tf = slices.Compact(tf)
	if len(tf) == 0 {
		return
	}
	oldest := tf[0]
	if oldest == newest {
		f("the matrix runs no Terraform older than the newest, %s", newest)
	}
	for _, v := range checksTF {
		if v != oldest {
			f("the checks run Terraform %s, the matrix's oldest is %s: make test runs both with the one on PATH", v, oldest)
		}
	}
	// make test's oldest run uses the terraform on PATH: say when it is
	// another version than the workflow's, without failing a developer
	// whose Terraform is newer.
	if v := terraformOnPath(); v != "" && v != oldest {
		r.warnings = append(r.warnings, fmt.Sprintf("the terraform on PATH is %s; %s tests the oldest supported, %s", v, testFlow, oldest))
	}
	r.summary = append(r.summary, fmt.Sprintf("test matrix Terraform %s, OpenTofu %s as make test", strings.Join(tf, ", "), tofu))
}

// terraformOnPath is the version of the terraform on PATH, "" when there is
// none (a variable: the tests leave it out).
var terraformOnPath = func() string {
	cmd := exec.Command("terraform", "version")
	cmd.Env = append(os.Environ(), "CHECKPOINT_DISABLE=1") // no look for a newer release
	out, err := cmd.Output()
	if err != nil {
		return ""
	}
	if m := regexp.MustCompile(`Terraform v(\S+)`).FindSubmatch(out); m != nil {
		return string(m[1])
	}
	return ""
}

// lessVersion compares dotted numeric versions.
func lessVersion(a, b string) bool {
	as, bs := strings.Split(a, "."), strings.Split(b, ".")
	for i := 0; i < len(as) && i < len(bs); i++ {
		var x, y int
		_, _ = fmt.Sscan(as[i], &x)
		_, _ = fmt.Sscan(bs[i], &y)
		if x != y {
			return x < y
		}
	}
	return len(as) < len(bs)
}

// squeeze removes the spaces a template may have inside its braces.
func squeeze(s string) string { return strings.ReplaceAll(s, " ", "") }

func modulePath(goMod []byte) string {
	m := regexp.MustCompile(`(?m)^module\s+(\S+)`).FindSubmatch(goMod)
	if m == nil {
		return ""
	}
	return string(m[1])
}

func pathBase(p string) string {
	if i := strings.LastIndex(p, "/"); i >= 0 {
		return p[i+1:]
	}
	return p
}
