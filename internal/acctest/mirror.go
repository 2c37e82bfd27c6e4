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
// test binary, or a binary built elsewhere (InstallProvider), such as a
// provider that is not on the module proxy.

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

// InstallProvider installs the provider binary bin, built elsewhere, into
// a mirror of its own as version under each of addresses, once per test
// binary.
func InstallProvider(t testing.TB, bin, version string, addresses ...string) *MirroredProvider {
	t.Helper()
	abs, err := filepath.Abs(bin)
	if err != nil {
		t.Fatal(err)
	}
	return sharedMirror(t, "binary\x00"+abs, version, addresses, func() (string, error) {
		return copyMirror(abs, version, addresses...)
	})
}

// BuildProvider builds the main package pkg (relative to the module root)
// with ldflags into a mirror of its own, installed as version under each
// of addresses.
func BuildProvider(t testing.TB, pkg, ldflags, version string, addresses ...string) *MirroredProvider {
	t.Helper()
	return sharedMirror(t, "build\x00"+pkg+"\x00"+ldflags, version, addresses, func() (string, error) {
		return buildMirror(pkg, ldflags, version, addresses...)
	})
}

// sharedMirror makes the mirror of what (at version, under addresses) with
// create, once per test binary, and returns it.
func sharedMirror(t testing.TB, what, version string, addresses []string, create func() (string, error)) *MirroredProvider {
	t.Helper()
	key := strings.Join(append([]string{what, version}, addresses...), "\x00")
	otherMirrorsMu.Lock()
	m, ok := otherMirrors[key]
	if !ok {
		m = &otherMirror{}
		otherMirrors[key] = m
	}
	otherMirrorsMu.Unlock()
	m.once.Do(func() {
		var dir string
		dir, m.err = create()
		m.provider = &MirroredProvider{Addresses: addresses, dir: dir}
	})
	if m.err != nil {
		t.Fatal(m.err)
	}
	return m.provider
}

// otherMirrorDirs are the directories of the mirrors BuildProvider and
// InstallProvider made.
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

// mirrorBinary is where a mirror in dir holds the provider's binary for
// the address addr (host/namespace/type) at version.
func mirrorBinary(dir, addr, version string) string {
	parts := strings.Split(addr, "/")
	return filepath.Join(append([]string{dir}, append(parts, version, runtime.GOOS+"_"+runtime.GOARCH,
		"terraform-provider-"+parts[len(parts)-1]+"_v"+version)...)...)
}

// copyMirror copies the binary bin into a new mirror directory, installed
// as version under each of addresses, and returns the directory.
func copyMirror(bin, version string, addresses ...string) (string, error) {
	src, err := os.ReadFile(bin) //nolint:gosec // G304: the binary the test run was given
	if err != nil {
		return "", fmt.Errorf("reading the provider binary: %w", err)
	}
	dir, err := os.MkdirTemp("", "pipeline-acctest-mirror-")
	if err != nil {
		return "", err
	}
	for _, addr := range addresses {
		dst := mirrorBinary(dir, addr, version)
		if err := os.MkdirAll(filepath.Dir(dst), 0o750); err != nil {
			return "", err
		}
		if err := os.WriteFile(dst, src, 0o700); err != nil { //nolint:gosec // G306: an executable
			return "", err
		}
	}
	return dir, nil
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
	var built string
	for _, addr := range addresses {
		bin := mirrorBinary(dir, addr, version)
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
