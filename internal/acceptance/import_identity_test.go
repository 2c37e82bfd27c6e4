package acceptance

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/acctest"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/localapi"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/python"
)

// TestAccImport_byIdentity imports configs and their order with `import`
// blocks that name each resource by its identity (Terraform 1.12+): the
// config resources by project_id and id (one with project_id left to the
// provider), the order resource by project_id. The apply imports all of
// them and writes nothing on the service; the state holds the API's ids and
// the identities; the next plan is empty.
func TestAccImport_byIdentity(t *testing.T) {
	acctest.ForEachKind(t, func(t *testing.T, tc acctest.KindCase) {
		t.Parallel()
		acctest.SkipWithoutIdentityImport(t)
		host, local := acctest.IsolatedAPI(t, nil)
		api := acctest.ClientFor(t, host, localapi.KeyFull)
		k, plugin, configType := tc.Kind, tc.Plugins[1], tc.TypeName
		ctx := context.Background()
		var ids []int64
		for i, name := range []string{"first", "second"} {
			rec, err := api.Create(ctx, "1", k.Collection, client.RecordInput{
				Plugin: client.Some(plugin), Order: client.Some(int64(i + 1)), Enabled: client.Some(true), Name: client.Some(name),
			})
			if err != nil {
				t.Fatal(err)
			}
			ids = append(ids, rec.ID)
		}

		orderType := "pipeline_" + k.Name + "_order"
		tf := acctest.NewTerraform(t, fmt.Sprintf(`provider "pipeline" {
  host       = %[1]q
  api_key    = %[2]q
  project_id = "1"
}

import {
  to       = %[3]s.first
  identity = { project_id = "1", id = %[5]d }
}

import {
  to       = %[3]s.second
  identity = { id = %[6]d }
}

import {
  to       = %[4]s.all
  identity = { project_id = "1" }
}

resource %[3]q "first" {
  plugin  = %[7]d
  enabled = true
  order   = 1
  name    = "first"
}

resource %[3]q "second" {
  plugin  = %[7]d
  enabled = true
  order   = 2
  name    = "second"
}

resource %[4]q "all" {
  config_ids = [%[3]s.first.id, %[3]s.second.id]
}
`, host, localapi.KeyWrite, configType, orderType, ids[0], ids[1], plugin), nil)

		local.ResetCounters()
		out, err := tf.Run("apply", "-auto-approve", "-no-color")
		if err != nil {
			t.Fatalf("apply: %v\n%s", err, out)
		}
		if !strings.Contains(out, "3 imported, 0 added, 0 changed, 0 destroyed") {
			t.Errorf("apply did not import exactly the three resources:\n%s", out)
		}
		c := local.Counters()
		if writes := c["create"] + c["update"] + c["delete"] + c["rearrange"]; writes != 0 {
			t.Errorf("importing made %d writes on the service, want none: %v", writes, c)
		}
		state := tf.StateIDs()
		if state[configType+".first"] != ids[0] || state[configType+".second"] != ids[1] {
			t.Errorf("the state holds %v, want first=%d second=%d", state, ids[0], ids[1])
		}
		instances := tf.State()
		for addr, want := range map[string]string{
			configType + ".first":  fmt.Sprintf(`{"id":%d,"project_id":"1"}`, ids[0]),
			configType + ".second": fmt.Sprintf(`{"id":%d,"project_id":"1"}`, ids[1]),
			orderType + ".all":     `{"project_id":"1"}`,
		} {
			if got := instances[addr].Identity; !python.Equal(got, json.RawMessage(want)) {
				t.Errorf("%s has the identity %s in state, want %s", addr, got, want)
			}
		}
		tf.EmptyPlan("after the import")
	})
}
