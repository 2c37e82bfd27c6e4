package createonce

import (
	"context"
	"fmt"
	"testing"
	"time"
)

// BenchmarkJournal_create is what the journal adds to one create: the line
// written before the POST, the one with the id after it, and the one when
// Terraform gets the config.
func BenchmarkJournal_create(b *testing.B) {
	dir := b.TempDir()
	j := journalOf(b, dir)
	b.Cleanup(func() { Release(dir, true) })
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		seq := j.begin("https://us.posthog.com", "1", "pipeline_transformation_configs", "fp", time.Now())
		j.answered(seq, int64(i+1), "2025-07-01T10:00:00.123456Z")
		j.handOver(int64(i + 1))
	}
}

// BenchmarkJournal_confirm is what it adds to the plan of one config in
// the state: a look-up in the killed runs' entries, read once (here 1,000
// of them, in one file).
func BenchmarkJournal_confirm(b *testing.B) {
	dir := b.TempDir()
	killed := journalOf(b.Name()+"killed", dir)
	for i := range 1000 {
		killed.write(event{Seq: killed.begin("h", "1", "c", fmt.Sprint(i), time.Now()), ID: int64(i + 1)})
	}
	release(func(key any, _ *journal) bool { return key == b.Name()+"killed" }, false)
	j := journalOf(b, dir)
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		j.confirm(context.Background(), "h", int64(1_000_000+i)) // held by no entry: the common case
	}
}
