package provider_test

import (
	"context"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/acctest"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/framework"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/localapi"
)

// TestEveryConstruct_apiGone calls every construct of each kind through the
// protocol, as Terraform would, against a service without the API
// (generation 3), holding a config made under generation 1: each answers
// with exactly one error that names its route and says the service no
// longer offers the API, and nothing crashes. (The job resource calls the
// service only when it is created; an existing one plans nothing.)
func TestEveryConstruct_apiGone(t *testing.T) {
	ctx := context.Background()
	for _, k := range framework.Kinds() {
		t.Run(k.Name, func(t *testing.T) {
			t.Parallel()
			host, local := acctest.IsolatedAPI(t, nil)
			plugin := map[string]int64{"transformation": 2, "import_app": 3}[k.Name]
			rec := acctest.MustCreate(t, acctest.ClientFor(t, host, localapi.KeyFull), k.Collection,
				client.RecordInput{Plugin: client.Some(plugin), Order: client.Some(int64(1))})
			if err := local.SetGeneration(localapi.Generation3); err != nil {
				t.Fatal(err)
			}
			ps := acctest.NewProviderServerFor(t, host, localapi.KeyFull, "1")
			id := tftypes.NewValue(tftypes.Number, rec.ID)
			str := func(s string) tftypes.Value { return tftypes.NewValue(tftypes.String, s) }
			typ := func(construct string) string { return "pipeline" + k.TypeSuffix(construct) }

			calls := map[string]func() []*tfprotov6.Diagnostic{
				"config resource (refresh)": func() []*tfprotov6.Diagnostic {
					state := acctest.DynamicValue(t, ps.ResourceType(t, k.ConfigTypeName()),
						map[string]tftypes.Value{"id": id, "project_id": str("1"), "plugin": tftypes.NewValue(tftypes.Number, plugin)})
					resp, err := ps.ReadResource(ctx, &tfprotov6.ReadResourceRequest{TypeName: k.ConfigTypeName(), CurrentState: state})
					if err != nil {
						t.Fatal(err)
					}
					return resp.Diagnostics
				},
				"order resource (refresh)": func() []*tfprotov6.Diagnostic {
					state := acctest.DynamicValue(t, ps.ResourceType(t, typ("order")), map[string]tftypes.Value{
						"id": str("1"), "project_id": str("1"),
						"config_ids": tftypes.NewValue(tftypes.List{ElementType: tftypes.Number}, []tftypes.Value{id}),
					})
					resp, err := ps.ReadResource(ctx, &tfprotov6.ReadResourceRequest{TypeName: typ("order"), CurrentState: state})
					if err != nil {
						t.Fatal(err)
					}
					return resp.Diagnostics
				},
				"job resource (plan)": func() []*tfprotov6.Diagnostic {
					return planCreate(t, ps, typ("job"), map[string]tftypes.Value{"config_id": id, "job_type": str("Sync now")})
				},
				"config data source": func() []*tfprotov6.Diagnostic {
					return readDataSource(t, ps, k.ConfigTypeName(), map[string]tftypes.Value{"id": id})
				},
				"configs data source": func() []*tfprotov6.Diagnostic {
					return readDataSource(t, ps, k.ConfigTypeName()+"s", nil)
				},
				"frontend data source": func() []*tfprotov6.Diagnostic {
					return readDataSource(t, ps, k.ConfigTypeName()+"_frontend", map[string]tftypes.Value{"config_id": id})
				},
				"list resource": func() []*tfprotov6.Diagnostic {
					results := ps.List(t, k.ConfigTypeName(), nil, false, 0)
					if len(results) != 1 {
						t.Fatalf("list: %d results, want the one carrying the error", len(results))
					}
					return results[0].Diagnostics
				},
				"run-job action (plan)": func() []*tfprotov6.Diagnostic {
					return ps.PlanAction(t, typ("run_job"), map[string]tftypes.Value{"config_id": id, "job_type": str("Sync now")})
				},
			}
			route := "/api/projects/1/" + string(k.Collection) + "/"
			for name, call := range calls {
				diags := call()
				if len(diags) != 1 || diags[0].Severity != tfprotov6.DiagnosticSeverityError ||
					!strings.Contains(diags[0].Detail, route) ||
					!strings.Contains(diags[0].Detail, "the service no longer offers the "+string(k.Collection)+" API.") ||
					!strings.Contains(diags[0].Detail, "Nothing was changed") {
					t.Errorf("%s: diagnostics %+v, want one error naming %s and saying the API is gone", name, diags, route)
				}
			}
		})
	}
}

// planCreate plans creating a resource with the given configuration.
func planCreate(t *testing.T, ps *acctest.ProviderServer, typeName string, config map[string]tftypes.Value) []*tfprotov6.Diagnostic {
	t.Helper()
	typ := ps.ResourceType(t, typeName)
	resp, err := ps.PlanResourceChange(context.Background(), &tfprotov6.PlanResourceChangeRequest{
		TypeName: typeName, PriorState: acctest.NullValue(t, typ),
		ProposedNewState: acctest.DynamicValue(t, typ, config), Config: acctest.DynamicValue(t, typ, config),
	})
	if err != nil {
		t.Fatal(err)
	}
	return resp.Diagnostics
}

// readDataSource reads a data source with the given configuration.
func readDataSource(t *testing.T, ps *acctest.ProviderServer, typeName string, config map[string]tftypes.Value) []*tfprotov6.Diagnostic {
	t.Helper()
	schema, ok := ps.Schemas.DataSourceSchemas[typeName]
	if !ok {
		t.Fatalf("no data source %s", typeName)
	}
	resp, err := ps.ReadDataSource(context.Background(), &tfprotov6.ReadDataSourceRequest{
		TypeName: typeName, Config: acctest.DynamicValue(t, schema.ValueType(), config),
	})
	if err != nil {
		t.Fatal(err)
	}
	return resp.Diagnostics
}
