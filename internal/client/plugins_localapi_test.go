package client_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/localapi"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/localapi/localapitest"
)

// TestPluginListingsOfTheLocalAPI: the client reads the local API's
// listings, which follow the live service, as the unit tests expect.
func TestPluginListingsOfTheLocalAPI(t *testing.T) {
	srv := localapitest.NewTestServer(t, localapi.Options{})
	newClient := func(key string) *client.Client {
		c, err := client.New(client.Config{Host: srv.URL, APIKey: key, PageSize: 3})
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	ctx := context.Background()
	org := newClient(localapi.KeyOrg)
	plugins, err := org.ListPlugins(ctx, client.CurrentOrganization, client.ImportApps.PluginListing())
	if err != nil {
		t.Fatal(err)
	}
	var ids []int64
	for _, p := range plugins {
		ids = append(ids, p.ID)
	}
	if !slices.Equal(ids, []int64{3, 4, 7, 9}) {
		t.Errorf("import app plugins %v", ids)
	}
	p, err := org.Plugin(ctx, localapi.OrganizationID, 9)
	if err != nil || *p.Name != "Mailchimp Import" || p.MigrationAvailable == nil || *p.MigrationAvailable ||
		!strings.Contains(string(p.JSON), `"config_schema":{`) {
		t.Errorf("plugin 9: %+v, %v", p, err)
	}
	if _, err := org.Plugin(ctx, client.CurrentOrganization, 404); !client.IsNotFound(err) {
		t.Errorf("an unknown plugin: %v", err)
	}
	if _, err := newClient(localapi.KeyRead).ListPlugins(ctx, client.CurrentOrganization, client.AllPlugins); !client.IsProjectScopedKey(err) {
		t.Errorf("a key limited to project 1: %v", err)
	}
	if _, err := org.ListPlugins(ctx, "01890000-0000-7000-8000-000000000999", client.AllPlugins); !client.IsOrganizationNotFound(err) {
		t.Errorf("another organization: %v", err)
	}
	if err := srv.SetGeneration(localapi.Generation3); err != nil {
		t.Fatal(err)
	}
	if _, err := org.ListPlugins(ctx, client.CurrentOrganization, client.AllPlugins); !client.IsServiceGone(err) {
		t.Errorf("generation 3: %v", err)
	}
	if _, err := org.Plugin(ctx, client.CurrentOrganization, 1); !client.IsServiceGone(err) {
		t.Errorf("generation 3, one plugin: %v", err)
	}
}
