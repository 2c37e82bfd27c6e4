package createonce

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
)

// journalSubdir is the journal's place in Terraform's data directory.
const journalSubdir = "pipeline-provider/creates"

// DefaultJournalDir is the journal directory of this process (JournalDir of
// the working directory, TF_DATA_DIR or .terraform, and the workspace); ""
// without a data directory (no `terraform init` here).
func DefaultJournalDir() string {
	dataDir := os.Getenv("TF_DATA_DIR")
	if dataDir == "" {
		dataDir = ".terraform"
	}
	wd, err := os.Getwd()
	if err != nil {
		return ""
	}
	return JournalDir(wd, dataDir, workspace(dataDir))
}

// JournalDir is the journal directory of a working directory, its data
// directory (relative to it, or absolute) and a workspace, wherever it is
// reached from: through a symlink, the real path, or a copy that took the
// data directory along. A data directory inside the working directory is
// that directory's alone, so the workspace keys it; one elsewhere (a shared
// TF_DATA_DIR) is keyed by the working directory's real path too. "" when
// the data directory does not exist.
func JournalDir(workdir, dataDir, workspace string) string {
	if !filepath.IsAbs(dataDir) {
		dataDir = filepath.Join(workdir, dataDir)
	}
	if fi, err := os.Stat(dataDir); err != nil || !fi.IsDir() { //nolint:gosec // G703: the user's own TF_DATA_DIR
		return ""
	}
	owner := "" // keys the journal too when the data directory is shared
	realWork, errW := filepath.EvalSymlinks(workdir)
	realData, errD := filepath.EvalSymlinks(dataDir)
	if errW != nil || errD != nil || !within(realData, realWork) {
		owner = realWork
		if errW != nil {
			owner = workdir
		}
	}
	return filepath.Join(dataDir, journalSubdir, shortHash(owner+"\x00"+workspace))
}

// within reports whether path is dir or inside it (both clean).
func within(path, dir string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// workspace is Terraform's selected workspace, as Terraform finds it.
func workspace(dataDir string) string {
	if ws := os.Getenv("TF_WORKSPACE"); ws != "" {
		return ws
	}
	if b, err := os.ReadFile(filepath.Join(dataDir, "environment")); err == nil { //nolint:gosec // G304: Terraform's own file
		if ws := strings.TrimSpace(string(b)); ws != "" {
			return ws
		}
	}
	return "default"
}

// shortHash names a journal file or directory after s.
func shortHash(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:8])
}
