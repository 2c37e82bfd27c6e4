package scenario

import (
	"math/big"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/acctest"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/localapi"
)

// Each invariant the scenarios check catches a violation planted in what
// it is given: a check that cannot fail would pass every scenario.

// holding is a resource of workspace ws that holds config id (0: none).
func holding(ws, name string, id int64) held {
	s := &slot{name: name}
	if id != 0 {
		typ := tftypes.Object{AttributeTypes: map[string]tftypes.Type{"id": tftypes.Number, "project_id": tftypes.String}}
		s.inst = acctest.Instance{State: tftypes.NewValue(typ, map[string]tftypes.Value{
			"id": tftypes.NewValue(tftypes.Number, id), "project_id": tftypes.NewValue(tftypes.String, "1"),
		})}
	}
	return held{&Workspace{Name: ws}, s}
}

func mentions(problems []string, text string) bool {
	for _, p := range problems {
		if strings.Contains(p, text) {
			return true
		}
	}
	return false
}

// TestHoldingProblems: two resources of two states holding one config,
// and a config no resource holds, are caught; a config that may be unheld
// (a named leftover, one let go of) is not.
func TestHoldingProblems(t *testing.T) {
	t.Parallel()
	none := func(int64) bool { return false }
	if got := holdingProblems([]held{holding("default", "r0", 7), holding("blue", "r1", 7)}, map[int64]bool{7: true}, none); !mentions(got, "default.r0 and blue.r1 both hold config 7") {
		t.Errorf("two resources holding config 7 not caught: %v", got)
	}
	if got := holdingProblems([]held{holding("default", "r0", 7), holding("blue", "r1", 0)}, map[int64]bool{7: true, 8: true}, none); !mentions(got, "config 8, which no resource holds") {
		t.Errorf("config 8, held by no resource, not caught: %v", got)
	}
	if got := holdingProblems([]held{holding("default", "r0", 7)}, map[int64]bool{7: true, 8: true}, func(id int64) bool { return id == 8 }); len(got) != 0 {
		t.Errorf("problems %v, want none: config 8 may be held by none", got)
	}
}

// stored is a stored config of plugin 1, named name.
func stored(id int64, name string) localapi.StoredRecord {
	return localapi.StoredRecord{ID: id, Plugin: 1, Name: &name, Config: []byte(`{}`)}
}

// created is default.r0's plan that creates a config of plugin 1.
func created() Shown {
	return Shown{Name: "default.r0", Action: "create", After: map[string]any{"plugin": new(big.Float).SetInt64(1)}}
}

// TestChangesAsPlanned: a config no plan names that changed, a new config
// no plan creates, and a create that succeeded without a new config or an
// announced adoption (it took a config silently) are caught; the planned
// create of a new config, or an announced adoption, are not.
func TestChangesAsPlanned(t *testing.T) {
	t.Parallel()
	cat := &Catalog{}
	before := Snapshot{1: stored(1, "kept")}
	for _, tc := range []struct {
		name    string
		applied Applied
		after   Snapshot
		want    string // "": no problem
	}{
		{"a config no plan names changed", Applied{}, Snapshot{1: stored(1, "renamed")},
			`config 1: name changed from "kept" to "renamed", but no plan changes it`},
		{"a new config no plan creates", Applied{}, Snapshot{1: stored(1, "kept"), 2: stored(2, "new")},
			"config 2 of plugin 1 is new, but the plan creates no config of that plugin"},
		{"a create that took a config silently", Applied{Shown: []Shown{created()}, Done: map[string]bool{"default.r0": true}},
			Snapshot{1: stored(1, "kept")}, "a create took a config that existed without saying so"},
		{"a create that made a config", Applied{Shown: []Shown{created()}, Done: map[string]bool{"default.r0": true}},
			Snapshot{1: stored(1, "kept"), 2: stored(2, "new")}, ""},
		{"a create that adopted a config with a warning", Applied{Shown: []Shown{created()},
			Done: map[string]bool{"default.r0": true}, Adopted: map[int64]bool{1: true}}, Snapshot{1: stored(1, "kept")}, ""},
		{"a create that failed", Applied{Shown: []Shown{created()}}, Snapshot{1: stored(1, "kept")}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got := ChangesAsPlanned(cat, tc.applied, before, tc.after)
			if tc.want == "" && len(got) != 0 || tc.want != "" && !mentions(got, tc.want) {
				t.Errorf("problems %q, want %q", got, tc.want)
			}
		})
	}
}
