package acceptance

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/acctest"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/localapi"
)

// TestAccConfigsDataSource_deletedConfigs: the service lists no
// soft-deleted config, so the list data source shows none, with or without
// include_deleted, and Terraform warns that the argument is deprecated and
// says how to see a soft-deleted config: the single-record data source,
// which shows it with deleted = true.
func TestAccConfigsDataSource_deletedConfigs(t *testing.T) {
	acctest.ForEachKind(t, func(t *testing.T, tc acctest.KindCase) {
		t.Parallel()
		host, _ := acctest.IsolatedAPI(t, nil)
		api := acctest.ClientFor(t, host, localapi.KeyFull)
		ctx := context.Background()
		var ids []int64
		for i := range 3 {
			rec, err := api.Create(ctx, "1", tc.Kind.Collection, client.RecordInput{Plugin: client.Some(tc.Plugins[i%2]), Order: client.Some(int64(i))})
			if err != nil {
				t.Fatal(err)
			}
			ids = append(ids, rec.ID)
		}
		deleted := ids[1]
		if _, err := api.Update(ctx, "1", tc.Kind.Collection, deleted, client.RecordInput{Deleted: client.Some(true)}); err != nil {
			t.Fatal(err)
		}

		listType, recordType := tc.TypeName+"s", tc.TypeName
		tf := acctest.NewTerraform(t, fmt.Sprintf(`provider "pipeline" {
  host       = %[1]q
  api_key    = %[2]q
  project_id = "1"
}

data %[3]q "plain" {}

data %[3]q "with_deleted" {
  include_deleted = true
}

data %[4]q "deleted" {
  id = %[5]d
}

output "plain" {
  value = data.%[3]s.plain.configs[*].id
}

output "with_deleted" {
  value = data.%[3]s.with_deleted.configs[*].id
}

output "deleted" {
  value = data.%[4]s.deleted.deleted
}
`, host, localapi.KeyWrite, listType, recordType, deleted), nil)
		out, err := tf.Run("apply", "-auto-approve", "-no-color")
		if err != nil {
			t.Fatalf("apply: %v\n%s", err, out)
		}
		flat := strings.Join(strings.Fields(out), " ")
		if !regexp.MustCompile(`Warning: (Attribute Deprecated|Deprecated attribute|Argument is deprecated)`).MatchString(flat) ||
			!strings.Contains(flat, "never lists soft-deleted configs") || !strings.Contains(flat, recordType) {
			t.Errorf("apply did not warn that include_deleted is deprecated, naming %s:\n%s", recordType, out)
		}
		outputs, err := tf.Run("output", "-json")
		if err != nil {
			t.Fatalf("terraform output: %v\n%s", err, outputs)
		}
		var got map[string]struct {
			Value json.RawMessage `json:"value"`
		}
		if err := json.Unmarshal([]byte(outputs), &got); err != nil {
			t.Fatalf("terraform output -json: %v\n%s", err, outputs)
		}
		active := []int64{ids[0], ids[2]}
		for _, name := range []string{"plain", "with_deleted"} {
			var listed []int64
			if err := json.Unmarshal(got[name].Value, &listed); err != nil || !slices.Equal(listed, active) {
				t.Errorf("data source %s lists %s, want %v: never the soft-deleted %d", name, got[name].Value, active, deleted)
			}
		}
		if v := string(got["deleted"].Value); v != "true" {
			t.Errorf("the single-record data source shows deleted = %s for the soft-deleted config, want true", v)
		}
	})
}
