package collection_test

import (
	"cmp"
	"fmt"
	"os"
	"slices"
	"strconv"
	"testing"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client"
)

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

func errorf(format string, args ...any) error { return fmt.Errorf(format, args...) }

// accOn reports whether acceptance tests run (TF_ACC is set).
func accOn() bool { return os.Getenv("TF_ACC") != "" }

// skipUnlessAcc skips an acceptance test without TF_ACC before it starts a
// local API of its own (resource.Test would skip it only after that).
func skipUnlessAcc(t *testing.T) {
	t.Helper()
	if !accOn() {
		t.Skip("acceptance tests need TF_ACC")
	}
}

// sortRecords sorts records by order, then id, as the list constructs do.
func sortRecords(recs []client.Record) {
	slices.SortStableFunc(recs, func(a, b client.Record) int {
		return cmp.Or(cmp.Compare(a.Order, b.Order), cmp.Compare(a.ID, b.ID))
	})
}
