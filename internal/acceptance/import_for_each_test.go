package acceptance

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/acctest"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/localapi"
)

// TestAccImportForEach_allConfigs: the configs data source page's example
// (import blocks with for_each over configs) takes over every config of a
// project in one apply on today's service, changing nothing on it, and the
// next plan is empty.
func TestAccImportForEach_allConfigs(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	host, _ := acctest.IsolatedTodayAPI(t, nil, func(api *client.Client) {
		for _, in := range []client.RecordInput{
			{Plugin: client.Some(int64(1)), Order: client.Some(int64(1)), Enabled: client.Some(true), Name: client.Some("GeoIP (EU)"),
				Settings: client.Some(json.RawMessage(`{"locale":"de","api_key":"s3cret"}`))},
			{Plugin: client.Some(int64(2)), Order: client.Some(int64(2))},
			{Plugin: client.Some(int64(5)), Order: client.Some(int64(3)), Description: client.Some("  kept as is \n")},
		} {
			if _, err := api.Create(ctx, "1", client.Transformations, in); err != nil {
				t.Fatal(err)
			}
		}
	})
	api := acctest.ClientFor(t, host, localapi.KeyFull)
	before, err := api.ListAll(ctx, "1", client.Transformations)
	if err != nil {
		t.Fatal(err)
	}
	_, file, _, _ := runtime.Caller(0)
	example, err := os.ReadFile(filepath.Join(filepath.Dir(file), "..", "..", "examples", "data-sources",
		"pipeline_transformation_configs", "import-all.tf"))
	if err != nil {
		t.Fatal(err)
	}
	tf := acctest.NewTerraform(t, acctest.ProviderBlock(host, localapi.KeyWrite, "1")+string(example), nil)
	out := mustApply(t, tf)
	if !strings.Contains(out, "3 imported, 0 added, 0 changed, 0 destroyed") {
		t.Errorf("the apply did not import the 3 configs alone:\n%s", out)
	}
	tf.EmptyPlan("after the import")
	after, err := api.ListAll(ctx, "1", client.Transformations)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(before, after) {
		t.Errorf("the import changed the service:\nbefore %+v\nafter  %+v", before, after)
	}
}
