package acceptance

import (
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/acctest"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/localapi"
)

// orderedConfigs are two configs that leave order to an order resource.
func orderedConfigs(host, nameA string) string {
	return recoveryProvider(host) + fmt.Sprintf(`
resource "pipeline_transformation_config" "a" {
  plugin  = 1
  name    = %q
  enabled = true
}

resource "pipeline_transformation_config" "b" {
  plugin  = 2
  name    = "b"
  enabled = true
}

resource "pipeline_transformation_order" "all" {
  config_ids = [pipeline_transformation_config.b.id, pipeline_transformation_config.a.id]
}
`, nameA)
}

// TestAccRefreshFalse_orderLeftOut: configs whose order an order resource
// sets are changed by an apply without refresh: the apply keeps what the
// plan said (the order Terraform last saw) instead of failing with an
// inconsistent result, changes on the service only what it planned (every
// stored config compared before and after), and the next plan, with a
// refresh, is empty (issue 24, case 5).
func TestAccRefreshFalse_orderLeftOut(t *testing.T) {
	t.Parallel()
	host, local := acctest.IsolatedAPI(t, nil)
	tf := acctest.NewTerraform(t, orderedConfigs(host, "a"), nil)
	mustApply(t, tf)
	id := tf.StateIDs()["pipeline_transformation_config.a"]
	before := storedSnapshot(t, local)
	if got := before[1][id].Order; got != 2 {
		t.Fatalf("the order resource left config a at order %d, want 2", got)
	}

	tf.WriteConfig(orderedConfigs(host, "a renamed"))
	mustApply(t, tf, "-refresh=false")
	after := storedSnapshot(t, local)
	// What the plan said: config a renamed; the service sets updated_at.
	want := before[1][id]
	renamed := "a renamed"
	want.Name, want.UpdatedAt = &renamed, after[1][id].UpdatedAt
	before[1][id] = want
	if !reflect.DeepEqual(after, before) {
		t.Errorf("the service holds, after the apply without refresh,\n%s\nwant only config %d renamed:\n%s",
			describeSnapshot(after), id, describeSnapshot(before))
	}
	tf.EmptyPlan("after the apply without refresh")
}

// storedSnapshot is every config of every project as the store holds it,
// deleted ones too, by project and id.
func storedSnapshot(t *testing.T, local *localapi.Server) map[int64]map[int64]localapi.StoredRecord {
	t.Helper()
	out := map[int64]map[int64]localapi.StoredRecord{}
	for _, project := range localapi.DefaultProjects() {
		recs, err := local.StoredRecords(project)
		if err != nil {
			t.Fatal(err)
		}
		out[project] = recs
	}
	return out
}

// describeSnapshot writes a snapshot one config a line, in order.
func describeSnapshot(s map[int64]map[int64]localapi.StoredRecord) string {
	var b strings.Builder
	for _, project := range slices.Sorted(maps.Keys(s)) {
		for _, id := range slices.Sorted(maps.Keys(s[project])) {
			r := s[project][id]
			fmt.Fprintf(&b, "  project %d config %d: plugin %d order %d enabled %t deleted %t name %v description %v "+
				"config %s filters %s created %d updated %d\n", project, id, r.Plugin, r.Order, r.Enabled, r.Deleted,
				deref(r.Name), deref(r.Description), r.Config, r.Filters, r.CreatedAt, r.UpdatedAt)
		}
	}
	return b.String()
}

func deref(s *string) any {
	if s == nil {
		return nil
	}
	return *s
}
