package scenario

import (
	"fmt"
	"os"
	"path/filepath"

	"pgregory.net/rapid"
)

// AnotherPath reaches the working directory another way for the steps
// that follow, as users do: through a symlink to it, by its real path, or
// moved elsewhere (copied with its .terraform, the old one removed). The
// create journal is found however it is reached, so a killed run's
// orphans are adopted, and never made twice, whichever path the next apply
// takes.
func (m *Machine) AnotherPath(t *rapid.T) {
	m.paths++
	switch how := rapid.SampledFrom([]string{"symlink", "real path", "moved"}).Draw(t, "path"); how {
	case "symlink":
		link := filepath.Join(m.root, fmt.Sprint("link", m.paths))
		if err := os.Symlink(m.real, link); err != nil {
			m.fail(t, "symlink: %v", err)
		}
		m.dir = link
	case "real path":
		m.dir = m.real
	case "moved":
		moved := filepath.Join(m.root, fmt.Sprint("moved", m.paths))
		if err := os.CopyFS(moved, os.DirFS(m.real)); err != nil {
			m.fail(t, "copying the working directory: %v", err)
		}
		if err := os.RemoveAll(m.real); err != nil {
			m.fail(t, "removing the working directory: %v", err)
		}
		m.real, m.dir = moved, moved
	}
	stats.Paths.Add(1)
	m.step("the working directory is reached as %s", m.dir)
}
