package acctest

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
)

// Some tests need Terraform as users run it: a provider binary in its own
// process (to kill an apply part-way), Terraform's own log (to look for the
// API key in it), and commands terraform-plugin-testing has no step for
// (apply -invoke, query -generate-config-out). They drive the binary the run
// uses (TerraformBinary) in a working directory of their own, with the
// provider built once per test binary and installed from a filesystem
// mirror, as `make demo` does.

// mirrorVersion is the version the provider is installed under.
const mirrorVersion = "0.1.0"

// providerAddress is this provider's address, as configurations name it;
// providerAddresses are its addresses in both registries, where a source
// without a host (pipelinecfg/pipeline) takes the tool's own.
const providerAddress = "registry.terraform.io/pipelinecfg/pipeline"

var providerAddresses = []string{providerAddress, "registry.opentofu.org/pipelinecfg/pipeline"}

var (
	mirrorOnce sync.Once
	mirrorDir  string
	mirrorErr  error
)

// providerMirror builds the provider into a filesystem mirror (once per
// test binary) and returns the mirror's directory.
func providerMirror() (string, error) {
	mirrorOnce.Do(func() {
		mirrorDir, mirrorErr = buildMirror(".", "-X main.version="+mirrorVersion, mirrorVersion, providerAddresses...)
	})
	return mirrorDir, mirrorErr
}

// RemoveProviderMirror deletes the mirrors built for Terraform tests (this
// provider's and the others'); call it from TestMain after the tests ran.
func RemoveProviderMirror() {
	for _, dir := range append(otherMirrorDirs(), mirrorDir) {
		if dir != "" {
			_ = os.RemoveAll(dir)
		}
	}
}

// Terraform is a working directory with the provider installed from the
// mirror, for tests that run the terraform binary themselves.
type Terraform struct {
	t   testing.TB
	Dir string
	bin string
	env []string
	// required are the other providers' entries of required_providers.
	required map[string]string
	// own says the configurations bring their terraform block.
	own bool
}

// NewTerraform writes config (with the required_providers block added) to
// a new working directory and runs terraform init. env is added to every
// command's environment, which otherwise is the test's without the
// provider's and Terraform's logging variables.
func NewTerraform(t testing.TB, config string, env map[string]string) *Terraform {
	t.Helper()
	return NewTerraformWith(t, config, TerraformSetup{Env: env})
}

// TerraformSetup is what a working directory has besides its configuration.
type TerraformSetup struct {
	// Env is added to every command's environment.
	Env map[string]string
	// Files are written into the working directory before terraform init,
	// by name (e.g. a terraform.tfstate whose providers init installs).
	Files map[string]string
	// Providers are other providers init installs, from their mirrors
	// (BuildProvider).
	Providers []*MirroredProvider
	// RequiredProviders are entries of the required_providers block that
	// WriteConfig writes besides this provider's: local name to source
	// (a module has one such block).
	RequiredProviders map[string]string
	// OwnTerraformBlock says the configurations bring their own terraform
	// block, as users write it: WriteConfig writes them as they are.
	OwnTerraformBlock bool
}

// NewTerraformWith is NewTerraform with files written before init and
// other providers installed.
func NewTerraformWith(t testing.TB, config string, setup TerraformSetup) *Terraform {
	t.Helper()
	SkipUnlessAcc(t)
	if IsLive() {
		t.Skip("needs the local API")
	}
	bin, err := exec.LookPath(TerraformBinary())
	if err != nil {
		t.Fatalf("no terraform binary to run: %v", err)
	}
	mirror, err := providerMirror()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	rc := filepath.Join(dir, "terraformrc")
	mirrors := []*MirroredProvider{{Addresses: providerAddresses, dir: mirror}}
	writeFile(t, rc, cliConfig(append(mirrors, setup.Providers...)))
	work := filepath.Join(dir, "work")
	if err := os.Mkdir(work, 0o700); err != nil {
		t.Fatal(err)
	}
	tf := &Terraform{t: t, Dir: work, bin: bin, required: setup.RequiredProviders, own: setup.OwnTerraformBlock}
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(name, "POSTHOG_") || strings.HasPrefix(name, "TF_LOG") || name == "TF_CLI_CONFIG_FILE" ||
			name == "TF_DATA_DIR" || strings.HasPrefix(name, "TF_REATTACH") {
			continue
		}
		tf.env = append(tf.env, kv)
	}
	tf.env = append(tf.env, "TF_CLI_CONFIG_FILE="+rc, "CHECKPOINT_DISABLE=1", "TF_IN_AUTOMATION=1", "TF_INPUT=0")
	for k, v := range setup.Env {
		tf.env = append(tf.env, k+"="+v)
	}
	tf.WriteConfig(config)
	for name, content := range setup.Files {
		tf.WriteFile(name, content)
	}
	if out, err := tf.Run("init", "-no-color"); err != nil {
		t.Fatalf("terraform init: %v\n%s", err, out)
	}
	return tf
}

// cliConfig is a CLI configuration that installs the mirrored providers
// from their mirrors and nothing from the network.
func cliConfig(mirrors []*MirroredProvider) string {
	var b strings.Builder
	b.WriteString("provider_installation {\n")
	var all []string
	for _, m := range mirrors {
		fmt.Fprintf(&b, "  filesystem_mirror {\n    path    = %q\n    include = %s\n  }\n", m.dir, hclList(m.Addresses))
		all = append(all, m.Addresses...)
	}
	fmt.Fprintf(&b, "  direct {\n    exclude = %s\n  }\n}\n", hclList(all))
	return b.String()
}

// hclList writes strings as an HCL list.
func hclList(items []string) string {
	quoted := make([]string, len(items))
	for i, s := range items {
		quoted[i] = fmt.Sprintf("%q", s)
	}
	return "[" + strings.Join(quoted, ", ") + "]"
}

// WriteConfig replaces the working directory's configuration.
func (tf *Terraform) WriteConfig(config string) {
	tf.t.Helper()
	if tf.own {
		tf.WriteFile("main.tf", config)
		return
	}
	var others strings.Builder
	names := make([]string, 0, len(tf.required))
	for name := range tf.required {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		fmt.Fprintf(&others, "    %s = {\n      source = %q\n    }\n", name, tf.required[name])
	}
	tf.WriteFile("main.tf", `terraform {
  required_providers {
    pipeline = {
      source = "registry.terraform.io/pipelinecfg/pipeline"
    }
`+others.String()+`  }
}
`+config)
}

// Command returns terraform with args, ready to start in the working
// directory with extra environment variables (KEY=VALUE).
func (tf *Terraform) Command(ctx context.Context, extraEnv []string, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, tf.bin, args...) //nolint:gosec // G204: the test's own terraform command
	cmd.Dir = tf.Dir
	cmd.Env = append(append([]string{}, tf.env...), extraEnv...)
	return cmd
}

// Run runs terraform with args and returns its combined output.
func (tf *Terraform) Run(args ...string) (string, error) {
	return tf.RunEnv(nil, args...)
}

// RunEnv runs terraform with args and extra environment variables.
func (tf *Terraform) RunEnv(extraEnv []string, args ...string) (string, error) {
	out, err := tf.Command(context.Background(), extraEnv, args...).CombinedOutput()
	return string(out), err
}

// WriteFile writes a file of the working directory, name relative to it.
func (tf *Terraform) WriteFile(name, content string) {
	tf.t.Helper()
	writeFile(tf.t, filepath.Join(tf.Dir, name), content)
}

// PlanExitCode runs terraform plan -detailed-exitcode -no-color with args
// and returns its output and exit code (0: no change, 1: an error, 2:
// changes).
func (tf *Terraform) PlanExitCode(args ...string) (string, int) {
	tf.t.Helper()
	out, err := tf.Run(append([]string{"plan", "-detailed-exitcode", "-no-color"}, args...)...)
	var exit *exec.ExitError
	switch {
	case err == nil:
		return out, 0
	case errors.As(err, &exit):
		return out, exit.ExitCode()
	}
	tf.t.Fatalf("plan: %v\n%s", err, out)
	return out, -1
}

// EmptyPlan fails the test unless terraform plan with args plans no
// change; step names the point of the test in the message.
func (tf *Terraform) EmptyPlan(step string, args ...string) {
	tf.t.Helper()
	if out, code := tf.PlanExitCode(args...); code != 0 {
		tf.t.Fatalf("%s: the plan %v is not empty: exit code %d, want 0 (no change)\n%s", step, args, code, out)
	}
}

func writeFile(t testing.TB, name, content string) {
	t.Helper()
	if err := os.WriteFile(name, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
}
