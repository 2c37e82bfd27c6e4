package acctest

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
)

// Providers other than this one that tests install into Terraform, such as
// stand-ins of providers a state was written with: built from a main
// package of this module into a filesystem mirror of their own, once per
// test binary.

// MirroredProvider is a provider in a filesystem mirror.
type MirroredProvider struct {
	// Addresses are the provider addresses (host/namespace/type) it is
	// installed under.
	Addresses []string
	dir       string
}

var (
	otherMirrorsMu sync.Mutex
	otherMirrors   = map[string]*otherMirror{}
)

// otherMirror is one build of BuildProvider, shared by the tests that ask
// for the same one.
type otherMirror struct {
	once     sync.Once
	provider *MirroredProvider
	err      error
}

// BuildProvider builds the main package pkg (relative to the module root)
// with ldflags into a mirror of its own, installed as version under each
// of addresses.
func BuildProvider(t testing.TB, pkg, ldflags, version string, addresses ...string) *MirroredProvider {
	t.Helper()
	key := strings.Join(append([]string{pkg, ldflags, version}, addresses...), "\x00")
	otherMirrorsMu.Lock()
	m, ok := otherMirrors[key]
	if !ok {
		m = &otherMirror{}
		otherMirrors[key] = m
	}
	otherMirrorsMu.Unlock()
	m.once.Do(func() {
		var dir string
		dir, m.err = buildMirror(pkg, ldflags, version, addresses...)
		m.provider = &MirroredProvider{Addresses: addresses, dir: dir}
	})
	if m.err != nil {
		t.Fatal(m.err)
	}
	return m.provider
}

// otherMirrorDirs are the directories of the mirrors BuildProvider made.
func otherMirrorDirs() []string {
	otherMirrorsMu.Lock()
	defer otherMirrorsMu.Unlock()
	var dirs []string
	for _, m := range otherMirrors {
		if m.provider != nil {
			dirs = append(dirs, m.provider.dir)
		}
	}
	return dirs
}

// buildMirror builds the main package pkg with ldflags into a new mirror
// directory, installed as version under each of addresses, and returns the
// directory.
func buildMirror(pkg, ldflags, version string, addresses ...string) (string, error) {
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		return "", fmt.Errorf("cannot find the module's source")
	}
	root := filepath.Join(filepath.Dir(file), "..", "..")
	dir, err := os.MkdirTemp("", "pipeline-acctest-mirror-")
	if err != nil {
		return "", err
	}
	platform := runtime.GOOS + "_" + runtime.GOARCH
	var built string
	for _, addr := range addresses {
		parts := strings.Split(addr, "/")
		bin := filepath.Join(append([]string{dir}, append(parts, version, platform,
			"terraform-provider-"+parts[len(parts)-1]+"_v"+version)...)...)
		if built != "" {
			if err := os.MkdirAll(filepath.Dir(bin), 0o750); err != nil {
				return "", err
			}
			if err := os.Link(built, bin); err != nil {
				return "", err
			}
			continue
		}
		build := exec.CommandContext(context.Background(), "go", "build", "-o", bin, //nolint:gosec // G204: the test's own build
			"-ldflags", ldflags, pkg)
		build.Dir = root
		if out, err := build.CombinedOutput(); err != nil {
			return "", fmt.Errorf("building %s: %w\n%s", pkg, err, out)
		}
		built = bin
	}
	return dir, nil
}
