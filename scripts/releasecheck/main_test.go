package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// files are what check reads, relative to the repository's root.
var files = []string{
	"go.mod", "main.go", "GNUmakefile", manifestFile, goreleaserFile, releaseFlow, testFlow,
	"scripts/gotool.sh", "scripts/live-gen2.sh", "scripts/testmatrix/main.go",
	"tools/terraform/go.mod", "tools/opentofu/go.mod",
}

func init() {
	terraformOnPath = func() string { return "" } // a warning only, and slow
}

// copyRepo copies the files check reads into a scratch root, with edit
// applied to the one named.
func copyRepo(t *testing.T, name string, edit func(string) string) string {
	t.Helper()
	root := t.TempDir()
	for _, f := range files {
		b, err := os.ReadFile(filepath.Join("..", "..", f)) //nolint:gosec // G304: the repository's own files
		if err != nil {
			t.Fatal(err)
		}
		text := string(b)
		if f == name {
			edited := edit(text)
			if edited == text {
				t.Fatalf("the edit changed nothing in %s", f)
			}
			text = edited
		}
		if err := os.MkdirAll(filepath.Dir(filepath.Join(root, f)), 0o750); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, f), []byte(text), 0o600); err != nil { //nolint:gosec // G703: a scratch copy under t.TempDir
			t.Fatal(err)
		}
	}
	return root
}

func TestRepositoryIsConsistent(t *testing.T) {
	r := check(filepath.Join("..", ".."))
	if len(r.problems) > 0 {
		t.Fatalf("problems:\n%s", strings.Join(r.problems, "\n"))
	}
}

// TestInconsistenciesAreFound: each edit that would break a release or a
// test run is reported, naming the file and what to fix.
func TestInconsistenciesAreFound(t *testing.T) {
	replace := func(from, to string) func(string) string {
		return func(s string) string { return strings.Replace(s, from, to, 1) }
	}
	tests := []struct {
		name, file string
		edit       func(string) string
		want       string
	}{
		{"manifest protocol", manifestFile, replace(`"6.0"`, `"5.0"`), `protocol_versions ["5.0"], but main.go serves protocol 6`},
		{"archive name", goreleaserFile, replace(`_{{ .Os }}_{{ .Arch }}"`, `-{{ .Os }}-{{ .Arch }}"`), "archive name_template"},
		{"binary name", goreleaserFile, replace(`binary: "{{ .ProjectName }}_v{{ .Version }}"`, `binary: "{{ .ProjectName }}"`), "Terraform runs terraform-provider-NAME_vVERSION"},
		{"tar archives", goreleaserFile, replace("formats: [zip]", "formats: [tar.gz]"), "the registry wants [zip]"},
		{"manifest left out", goreleaserFile, replace("glob: terraform-registry-manifest.json", "glob: README.md"), "checksum.extra_files lacks terraform-registry-manifest.json"},
		{"no linux arm64", goreleaserFile, replace("      - arm64\n", ""), "no build for darwin_arm64, linux_arm64"},
		{"release on branches", releaseFlow, replace(`- "v*"`, `- "release-*"`), "does not run on tags v*"},
		{"another goreleaser", releaseFlow, replace("version: v2.15.1", "version: latest"), `GoReleaser version "latest"`},
		{"signing key", releaseFlow, replace("steps.import_gpg.outputs.fingerprint", "steps.gpg.outputs.fingerprint"), "GoReleaser's env GPG_FINGERPRINT"},
		{"a missing script", testFlow, replace("prefix: scripts/live-gen2.sh", "prefix: scripts/live-gen3.sh"), "names scripts/live-gen3.sh, which does not exist"},
		{"a missing target", testFlow, replace("run: make checks", "run: make check"), "runs make check, which GNUmakefile does not define"},
		{"another OpenTofu", testFlow, replace(`version: "1.12.6"`, `version: "1.11.0"`), `the matrix runs OpenTofu ["1.11.0"]`},
		{"newest not run", "tools/terraform/go.mod", replace("github.com/hashicorp/terraform v1.16.4", "github.com/hashicorp/terraform v1.17.0"), "does not run Terraform 1.17.0"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := check(copyRepo(t, tt.file, tt.edit))
			all := strings.Join(r.problems, "\n")
			if !strings.Contains(all, tt.want) {
				t.Fatalf("want a problem saying %q, got:\n%s", tt.want, all)
			}
		})
	}
}
