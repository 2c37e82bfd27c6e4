package acceptance

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// guideFile returns a file of a guide's examples (examples/guides/GUIDE/...).
func guideFile(t *testing.T, guide string, path ...string) string {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	b, err := os.ReadFile(filepath.Join(append([]string{filepath.Dir(file), "..", "..", "examples", "guides", guide}, path...)...))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
