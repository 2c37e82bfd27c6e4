package acctest

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"

	"github.com/hashicorp/go-version"
)

// The tool the acceptance tests run: `make test` runs them once per
// Terraform or OpenTofu binary it supports, choosing it through
// TF_ACC_TERRAFORM_PATH, the variable terraform-plugin-testing reads; the
// tests that drive the binary themselves use the same one.

// EnvTerraformPath names the binary the acceptance tests run.
const EnvTerraformPath = "TF_ACC_TERRAFORM_PATH"

// TerraformBinary is the terraform (or tofu) binary of this run:
// TF_ACC_TERRAFORM_PATH, else terraform on PATH.
func TerraformBinary() string {
	if p := os.Getenv(EnvTerraformPath); p != "" {
		return p
	}
	return "terraform"
}

// Tool is a terraform or tofu binary and its version.
type Tool struct {
	// OpenTofu reports whether the binary is OpenTofu.
	OpenTofu bool
	// Version is its core version, e.g. 1.14.9.
	Version *version.Version
}

// String names the tool as its version command does.
func (t Tool) String() string {
	if t.OpenTofu {
		return "OpenTofu v" + t.Version.String()
	}
	return "Terraform v" + t.Version.String()
}

var (
	toolOnce sync.Once
	tool     Tool
	toolErr  error
)

// CurrentTool returns the tool of this run, asking the binary once.
func CurrentTool(t testing.TB) Tool {
	t.Helper()
	toolOnce.Do(func() {
		var out []byte
		out, toolErr = exec.CommandContext(context.Background(), TerraformBinary(), "version", "-json").Output() //nolint:gosec // G204: the run's own binary
		if toolErr != nil {
			return
		}
		// Both tools answer with terraform_version; only the plain text
		// says which one it is.
		var v struct {
			Version string `json:"terraform_version"`
		}
		// OpenTofu prints warnings about its CLI configuration on stdout,
		// before the JSON.
		if i := bytes.IndexByte(out, '{'); i > 0 {
			out = out[i:]
		}
		if toolErr = json.Unmarshal(out, &v); toolErr != nil {
			return
		}
		tool.Version, toolErr = version.NewVersion(v.Version)
		if toolErr != nil {
			return
		}
		text, _ := exec.CommandContext(context.Background(), TerraformBinary(), "version").Output() //nolint:gosec // G204: the run's own binary
		tool.OpenTofu = strings.Contains(string(text), "OpenTofu v")
	})
	if toolErr != nil {
		t.Fatalf("asking %s for its version: %v", TerraformBinary(), toolErr)
	}
	return tool
}

// SkipBelowTerraform skips a test that drives the binary itself when the
// run's tool is OpenTofu or a Terraform older than minimum: the suite runs
// again with a newer Terraform (make test), and fails when a test was
// skipped in every run.
func SkipBelowTerraform(t testing.TB, minimum string) {
	t.Helper()
	tl := CurrentTool(t)
	if tl.OpenTofu || tl.Version.LessThan(version.Must(version.NewVersion(minimum))) {
		t.Skipf("needs Terraform %s or later; this run uses %s", minimum, tl)
	}
}

// SkipWithoutIdentityImport skips a test of import blocks by identity when
// the run's tool has none: Terraform and OpenTofu before 1.12.
func SkipWithoutIdentityImport(t testing.TB) {
	t.Helper()
	if tl := CurrentTool(t); tl.Version.LessThan(version.Must(version.NewVersion("1.12.0"))) {
		t.Skipf("needs Terraform or OpenTofu 1.12 or later; this run uses %s", tl)
	}
}
