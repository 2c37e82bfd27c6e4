package configresource_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"sync"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/acctest"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/localapi"
)

// TestAccRecordResource_pluginChanged updates a plugin on the service (new
// name, description and version) under configs that leave their name and
// description to it. The refresh, which reads most of them from list
// pages, shows the plugin's new name and description, so the plan is empty;
// an update then applies without an inconsistent result.
func TestAccRecordResource_pluginChanged(t *testing.T) {
	if acctest.IsLive() {
		t.Skip("changes the local API's plugin catalog")
	}
	api := newSwappableAPI(t)
	acctest.ForEachKind(t, func(t *testing.T, tc acctest.KindCase) {
		plugin := tc.Plugins[0]
		var original localapi.Plugin
		for _, p := range localapi.DefaultPlugins() {
			if p.ID == plugin {
				original = p
			}
		}
		config := func(enabled bool) string {
			return acctest.ProviderBlock(api.url, acctest.KeyWrite, "1") + tc.Resource("r",
				fmt.Sprintf("  count   = 3\n  plugin  = %d\n  enabled = %t", plugin, enabled))
		}
		nameIs := func(name, description string) resource.TestCheckFunc {
			var checks []resource.TestCheckFunc
			for i := range 3 {
				addr := fmt.Sprintf("%s.r.%d", tc.TypeName, i)
				checks = append(checks,
					resource.TestCheckResourceAttr(addr, "name", name),
					resource.TestCheckResourceAttr(addr, "description", description))
			}
			return resource.ComposeAggregateTestCheckFunc(checks...)
		}
		renamed, redescribed := original.Name+" v2", original.Description+" (v2)"
		var id int64

		resource.Test(t, resource.TestCase{
			PreCheck:                 func() { acctest.PreCheck(t) },
			ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
			Steps: []resource.TestStep{
				{
					PreConfig: func() { api.open(t, nil) },
					Config:    config(false),
					Check:     nameIs(original.Name, original.Description),
				},
				{
					// The plugin is updated on the service.
					PreConfig: func() {
						api.open(t, func(p *localapi.Plugin) {
							if p.ID == plugin {
								p.Name, p.Description, p.Tag = renamed, redescribed, "v9.9.9"
							}
						})
					},
					Config: config(false),
					ConfigPlanChecks: resource.ConfigPlanChecks{
						PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
					},
					Check: nameIs(renamed, redescribed),
				},
				{
					Config: config(true),
					Check: resource.ComposeAggregateTestCheckFunc(
						nameIs(renamed, redescribed),
						acctest.CaptureID(tc.TypeName+".r.2", &id),
						func(*terraform.State) error {
							rec, err := acctest.ClientFor(t, api.url, acctest.KeyFull).Get(t.Context(), "1", tc.Kind.Collection, id)
							if err != nil {
								return err
							}
							if !rec.Enabled || rec.Name == nil || *rec.Name != renamed {
								return fmt.Errorf("the service holds enabled=%t name=%v, want enabled under the new name", rec.Enabled, rec.Name)
							}
							return nil
						},
					),
				},
			},
		})
	})
}

// swappableAPI is a local API on one address whose plugin catalog a test
// changes by reopening its database with another catalog.
type swappableAPI struct {
	url string
	db  string
	mu  sync.Mutex
	srv *localapi.Server
}

func newSwappableAPI(t *testing.T) *swappableAPI {
	a := &swappableAPI{db: filepath.Join(t.TempDir(), "api.db")}
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		a.mu.Lock()
		srv := a.srv
		a.mu.Unlock()
		srv.ServeHTTP(w, r)
	}))
	a.url = ts.URL
	t.Cleanup(func() {
		ts.Close()
		a.mu.Lock()
		defer a.mu.Unlock()
		if err := a.srv.Close(); err != nil {
			t.Error(err)
		}
	})
	a.open(t, nil)
	return a
}

// open (re)opens the database with the default catalog, changed by change.
func (a *swappableAPI) open(t *testing.T, change func(*localapi.Plugin)) {
	plugins := localapi.DefaultPlugins()
	if change != nil {
		for i := range plugins {
			change(&plugins[i])
		}
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.srv != nil {
		if err := a.srv.Close(); err != nil {
			t.Fatal(err)
		}
	}
	srv, err := localapi.New(localapi.Options{DBPath: a.db, Plugins: plugins})
	if err != nil {
		t.Fatal(err)
	}
	a.srv = srv
}
