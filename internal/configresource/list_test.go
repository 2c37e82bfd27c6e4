package configresource_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math/big"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/querycheck"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/acctest"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/configresource"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/framework"
)

// TestAccConfigList runs on Terraform 1.14+ only: terraform query lists the
// configs created in the first step, with their identities.
func TestAccConfigList(t *testing.T) {
	acctest.ForEachKind(t, func(t *testing.T, tc acctest.KindCase) {
		acctest.SkipUnlessAcc(t)
		host, _ := acctest.IsolatedAPI(t, nil)
		providerBlock := acctest.ProviderBlock(host, acctest.KeyWrite, "1")
		identity := func(id int64) map[string]knownvalue.Check {
			return map[string]knownvalue.Check{"project_id": knownvalue.StringExact("1"), "id": knownvalue.Int64Exact(id)}
		}
		listAddr := tc.TypeName + ".all"
		resource.ParallelTest(t, resource.TestCase{
			TerraformVersionChecks:   []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_14_0)},
			PreCheck:                 func() { acctest.PreCheck(t) },
			ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
			Steps: []resource.TestStep{
				{
					Config: providerBlock + tc.Resource("a", "  plugin = "+strconv.FormatInt(tc.Plugins[0], 10)) +
						tc.Resource("b", "  plugin = "+strconv.FormatInt(tc.Plugins[1], 10)+"\n  enabled = true"),
				},
				{
					// A query step adds its list blocks to the previous
					// step's configuration, which configures the provider.
					Query: true,
					Config: fmt.Sprintf(`
list %q "all" {
  provider         = pipeline
  include_resource = true
}

list %q "enabled" {
  provider = pipeline
  config {
    enabled = true
  }
}
`, tc.TypeName, tc.TypeName),
					QueryResultChecks: []querycheck.QueryResultCheck{
						querycheck.ExpectLength(listAddr, 2),
						// A fresh local API numbers the two configs 1 and 2.
						querycheck.ExpectIdentity(listAddr, identity(1)),
						querycheck.ExpectIdentity(listAddr, identity(2)),
						querycheck.ExpectLength(tc.TypeName+".enabled", 1),
					},
				},
			},
		})
	})
}

// TestConfigList_protocol covers the list resource on any Terraform by
// calling the provider's protocol 6 server as terraform query would, over
// more than one page of records (a local API of the test's own): every
// config that is not soft-deleted, and none of the other kind, with its
// identity, and with include_resource the resource object, checked against
// the API's records (order left null, for the service or an order resource
// to keep), its `config` without the plugin's secret settings
// (which list pages show unmasked when they are "": one GET per plugin
// tells which they are); the narrowing arguments and the limit; an
// identity that imports into the record the list showed; and a page that
// fails, reported as a result carrying the error.
func TestConfigList_protocol(t *testing.T) {
	acctest.ForEachKind(t, func(t *testing.T, tc acctest.KindCase) {
		t.Parallel()
		var failPages atomic.Bool
		var listCalls atomic.Int64
		host, local := acctest.IsolatedAPI(t, func(h http.Handler) http.Handler {
			return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, string(tc.Kind.Collection)+"/") {
					listCalls.Add(1)
					if failPages.Load() && r.URL.Query().Get("offset") != "0" {
						w.Header().Set("Content-Type", "application/json")
						w.WriteHeader(http.StatusBadRequest)
						_, _ = w.Write([]byte(`{"type":"validation_error","code":"invalid","detail":"Page broken on purpose.","attr":null}`))
						return
					}
				}
				h.ServeHTTP(w, r)
			})
		})
		api := acctest.ClientFor(t, host, acctest.KeyFull)
		const count = 105
		// The seeded plugin with a secret setting, and another one.
		sp := acctest.SecretPlugins[tc.Kind.Name]
		plugins := []int64{sp.Plugin, tc.Plugins[1]}
		for i := range count {
			in := client.RecordInput{
				Plugin: client.Some(plugins[i%2]), Order: client.Some(int64(i % 7)), Enabled: client.Some(i%3 == 0),
				Filters: client.Some(json.RawMessage(`{"events":[{"id":"$pageview","type":"events"}]}`)),
			}
			if i%2 == 0 {
				// An empty secret, which the service shows as it is.
				in.Settings = client.Some(json.RawMessage(fmt.Sprintf(`{%q: "p", %q: ""}`, sp.Plain, sp.SecretKey)))
			}
			acctest.MustCreate(t, api, tc.Kind.Collection, in)
		}
		for range 2 {
			rec := acctest.MustCreate(t, api, tc.Kind.Collection, client.RecordInput{Plugin: client.Some(tc.Plugins[0]), Order: client.Some(int64(0))})
			if _, err := api.Update(context.Background(), "1", tc.Kind.Collection, rec.ID, client.RecordInput{Deleted: client.Some(true)}); err != nil {
				t.Fatal(err)
			}
		}
		other := framework.Kinds()[0].Collection
		if other == tc.Kind.Collection {
			other = framework.Kinds()[1].Collection
		}
		acctest.MustCreate(t, api, other, client.RecordInput{Plugin: client.Some(tc.OtherPlugin), Order: client.Some(int64(0))})

		all, err := api.ListAll(context.Background(), "1", tc.Kind.Collection)
		if err != nil {
			t.Fatal(err)
		}
		want := slices.DeleteFunc(all, func(r client.Record) bool { return r.Deleted })
		configresource.SortByOrder(want)
		if len(want) != count {
			t.Fatalf("the API lists %d active configs, want %d", len(want), count)
		}

		srv := acctest.NewProviderServerFor(t, host, acctest.KeyWrite, "1")
		resourceType := srv.ResourceType(t, tc.TypeName)
		identityType := srv.IdentityType(t, tc.TypeName)

		for _, include := range []bool{false, true} {
			listCalls.Store(0)
			local.ResetCounters()
			results := srv.List(t, tc.TypeName, nil, include, 0)
			if len(results) != count {
				t.Fatalf("include_resource=%v: %d results, want %d", include, len(results), count)
			}
			if n := listCalls.Load(); n < 2 {
				t.Errorf("include_resource=%v: %d list requests, want one per page (at least 2)", include, n)
			}
			// A GET per plugin for its secret keys, once per provider
			// configuration, and only for the resource objects.
			if gets, want := local.Counters()["retrieve"], map[bool]int64{false: 0, true: 2}[include]; gets != want {
				t.Errorf("include_resource=%v: %d GETs, want %d", include, gets, want)
			}
			for i, res := range results {
				rec := &want[i]
				acctest.FailOnDiagnostics(t, "ListResource", res.Diagnostics)
				if res.Identity == nil {
					t.Fatalf("result %d has no identity", i)
				}
				ident := acctest.Attributes(t, res.Identity.IdentityData, identityType)
				if got := [2]string{acctest.StringOf(t, ident["project_id"]), numberOf(t, ident["id"])}; got != [2]string{"1", strconv.FormatInt(rec.ID, 10)} {
					t.Errorf("result %d: identity %v, want project 1, id %d", i, got, rec.ID)
				}
				if !strings.Contains(res.DisplayName, acctest.Deref(rec.Name)) || !strings.Contains(res.DisplayName, strconv.FormatInt(rec.ID, 10)) {
					t.Errorf("result %d: display name %q, want the name %q and id %d", i, res.DisplayName, acctest.Deref(rec.Name), rec.ID)
				}
				if !include {
					if res.Resource != nil {
						t.Errorf("result %d: a resource object without include_resource", i)
					}
					continue
				}
				obj := acctest.Attributes(t, res.Resource, resourceType)
				for attr, apiValue := range map[string]string{
					"id": strconv.FormatInt(rec.ID, 10), "plugin": strconv.FormatInt(rec.Plugin, 10),
				} {
					if got := numberOf(t, obj[attr]); got != apiValue {
						t.Errorf("result %d: %s = %s, the API says %s", i, attr, got, apiValue)
					}
				}
				for attr, apiValue := range map[string]string{
					"project_id": "1", "name": acctest.Deref(rec.Name), "description": acctest.Deref(rec.Description),
					"created_at": rec.CreatedAt, "updated_at": rec.UpdatedAt,
				} {
					if got := acctest.StringOf(t, obj[attr]); got != apiValue {
						t.Errorf("result %d: %s = %q, the API says %q", i, attr, got, apiValue)
					}
				}
				// Left to the service or an order resource in generated
				// configuration.
				if !obj["order"].IsNull() {
					t.Errorf("result %d: order %s, want null", i, obj["order"])
				}
				var enabled bool
				if err := obj["enabled"].As(&enabled); err != nil || enabled != rec.Enabled {
					t.Errorf("result %d: enabled %v, the API says %v", i, enabled, rec.Enabled)
				}
				if f := acctest.StringOf(t, obj["filters"]); !configresource.FiltersEqual(f, string(rec.Filters)) {
					t.Errorf("result %d: filters %s, the API says %s", i, f, rec.Filters)
				}
				wantConfig := "{}"
				if rec.Plugin == sp.Plugin {
					wantConfig = fmt.Sprintf(`{%q:"p"}`, sp.Plain)
				}
				if got := acctest.StringOf(t, obj["config"]); got != wantConfig {
					t.Errorf("result %d: config %s, want %s (the API shows %s)", i, got, wantConfig, rec.Settings)
				}
			}
		}

		// Narrowing and the limit.
		var enabled, ofPlugin int
		for _, r := range want {
			if r.Enabled {
				enabled++
			}
			if r.Plugin == tc.Plugins[1] {
				ofPlugin++
			}
		}
		if got := len(srv.List(t, tc.TypeName, map[string]tftypes.Value{"enabled": tftypes.NewValue(tftypes.Bool, true)}, false, 0)); got != enabled {
			t.Errorf("enabled = true: %d results, want %d", got, enabled)
		}
		if got := len(srv.List(t, tc.TypeName, map[string]tftypes.Value{"plugin": tftypes.NewValue(tftypes.Number, tc.Plugins[1])}, false, 0)); got != ofPlugin {
			t.Errorf("plugin = %d: %d results, want %d", tc.Plugins[1], got, ofPlugin)
		}
		if got := len(srv.List(t, tc.TypeName, nil, false, 10)); got != 10 {
			t.Errorf("limit 10: %d results", got)
		}

		// The identity of a result imports into the record it showed.
		first := srv.List(t, tc.TypeName, nil, true, 1)[0]
		imported, err := srv.ImportResourceState(context.Background(), &tfprotov6.ImportResourceStateRequest{
			TypeName: tc.TypeName, Identity: first.Identity,
		})
		if err != nil {
			t.Fatal(err)
		}
		acctest.FailOnDiagnostics(t, "ImportResourceState", imported.Diagnostics)
		read, err := srv.ReadResource(context.Background(), &tfprotov6.ReadResourceRequest{
			TypeName: tc.TypeName, CurrentState: imported.ImportedResources[0].State, CurrentIdentity: imported.ImportedResources[0].Identity,
		})
		if err != nil {
			t.Fatal(err)
		}
		acctest.FailOnDiagnostics(t, "ReadResource", read.Diagnostics)
		got, listed := acctest.Attributes(t, read.NewState, resourceType), acctest.Attributes(t, first.Resource, resourceType)
		for _, attr := range []string{"id", "project_id", "plugin", "enabled", "name", "description", "filters", "config", "created_at"} {
			if !got[attr].Equal(listed[attr]) {
				t.Errorf("imported %s = %v, listed %v", attr, got[attr], listed[attr])
			}
		}

		// A page that fails: one result carrying the error.
		failPages.Store(true)
		failed := srv.List(t, tc.TypeName, nil, false, 0)
		if len(failed) != 1 || len(failed[0].Diagnostics) != 1 || failed[0].Identity != nil ||
			failed[0].Diagnostics[0].Severity != tfprotov6.DiagnosticSeverityError ||
			!regexp.MustCompile(`answered 400.*Page broken on purpose`).MatchString(strings.ReplaceAll(failed[0].Diagnostics[0].Detail, "\n", " ")) {
			t.Errorf("failed page: results %+v, want one carrying the error", failed)
		}
	})
}

func numberOf(t *testing.T, v tftypes.Value) string {
	t.Helper()
	var f big.Float
	if err := v.As(&f); err != nil {
		t.Fatal(err)
	}
	return f.Text('f', -1)
}
