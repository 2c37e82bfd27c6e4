package acceptance

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	_ "modernc.org/sqlite" // the local API's SQLite driver, to load its records

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/acctest"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/framework"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/localapi"
)

// upgradeFixture is a real state of the last release whose config resources
// are at schema version 0 (with plugin_info, error, delivery_rate_24h,
// deleted and team_id): testdata/upgrade-v0/terraform.tfstate is what
// Terraform 1.11.4 wrote applying main.tf with the provider built at commit
// 84f41e9 against a local API, and api_records.sql the records that apply
// left on that API. No secret is set.
const upgradeFixture = "testdata/upgrade-v0"

// upgradedAttributes are the attributes of the config resource at schema
// version 1, exactly.
var upgradedAttributes = []string{
	"config", "created_at", "description", "enabled", "filters", "id", "name", "order", "plugin", "project_id",
	"secret_config_wo", "secret_config_wo_version", "timeouts", "updated_at",
}

// TestAccUpgrade_stateVersion0: the provider takes over the state of the
// last release without a change. A plan with and without a refresh plans
// nothing, the apply writes nothing to the service, and the state it
// writes has, for every config, schema version 1, exactly the attributes of
// version 1 and the values it had. A name then left to the plugin becomes
// the plugin's.
func TestAccUpgrade_stateVersion0(t *testing.T) {
	t.Parallel()
	host := fixtureAPI(t)
	config := readFile(t, filepath.Join(upgradeFixture, "main.tf"))
	tf := acctest.NewTerraform(t, string(config), map[string]string{"TF_VAR_host": host})
	fixture := readFile(t, filepath.Join(upgradeFixture, "terraform.tfstate"))
	if err := os.WriteFile(filepath.Join(tf.Dir, "terraform.tfstate"), fixture, 0o600); err != nil { //nolint:gosec // G703: the test's own working directory
		t.Fatal(err)
	}
	before := acctest.ParseState(t, fixture)
	for addr, in := range before {
		if in.SchemaVersion != 0 || in.Attributes["plugin_info"] == nil {
			t.Fatalf("fixture %s: schema version %d, want a version 0 state with plugin_info", addr, in.SchemaVersion)
		}
	}

	// Without a refresh, the plan sees the upgraded state alone (no plugin
	// facts yet); with one, what the service holds.
	tf.EmptyPlan("after the upgrade, no refresh", "-refresh=false")
	tf.EmptyPlan("after the upgrade")
	if out, err := tf.Run("apply", "-auto-approve", "-no-color"); err != nil ||
		!strings.Contains(out, "0 added, 0 changed, 0 destroyed") {
		t.Fatalf("apply after the upgrade: %v\n%s", err, out)
	}

	upgraded := tf.State()
	if len(upgraded) != len(before) {
		t.Fatalf("%d configs in the upgraded state, want %d", len(upgraded), len(before))
	}
	api := acctest.ClientFor(t, host, localapi.KeyFull)
	for addr, in := range upgraded {
		if in.SchemaVersion != 1 {
			t.Errorf("%s: schema version %d, want 1", addr, in.SchemaVersion)
		}
		if got := slices.Sorted(maps.Keys(in.Attributes)); !slices.Equal(got, upgradedAttributes) {
			t.Errorf("%s: attributes %v, want %v", addr, got, upgradedAttributes)
		}
		for _, name := range upgradedAttributes {
			if was, is := before[addr].Attributes[name], in.Attributes[name]; !bytes.Equal(was, is) {
				t.Errorf("%s: %s = %s, was %s", addr, name, is, was)
			}
		}
		// Nothing was written to the service.
		var id int64
		var updatedAt string
		if json.Unmarshal(in.Attributes["id"], &id) != nil || json.Unmarshal(in.Attributes["updated_at"], &updatedAt) != nil {
			t.Fatalf("%s: id %s, updated_at %s", addr, in.Attributes["id"], in.Attributes["updated_at"])
		}
		rec, err := api.Get(context.Background(), "1", collectionOfAddr(t, addr), id)
		if err != nil {
			t.Fatal(err)
		}
		if rec.UpdatedAt != updatedAt {
			t.Errorf("%s: updated on the service (%s, state %s)", addr, rec.UpdatedAt, updatedAt)
		}
	}

	// The name left to the plugin: the plan knows it is not the plugin's
	// (from the facts the refresh stored), and the service then shows the
	// plugin's.
	tf.WriteConfig(strings.Replace(string(config), `  name        = "GeoIP, every argument"`+"\n", "", 1))
	if out, err := tf.Run("apply", "-auto-approve", "-no-color"); err != nil ||
		!strings.Contains(out, "0 added, 1 changed, 0 destroyed") {
		t.Fatalf("apply without the name: %v\n%s", err, out)
	}
	var id int64
	if err := json.Unmarshal(upgraded["pipeline_transformation_config.full"].Attributes["id"], &id); err != nil {
		t.Fatal(err)
	}
	rec, err := api.Get(context.Background(), "1", collectionOfAddr(t, "pipeline_transformation_config.full"), id)
	if err != nil {
		t.Fatal(err)
	}
	if rec.Name == nil || *rec.Name != "GeoIP" {
		t.Errorf("name on the service %v, want the plugin's (GeoIP)", acctest.Deref(rec.Name))
	}
	tf.EmptyPlan("after the name went back to the plugin")
}

// fixtureAPI starts a local API holding the fixture's records.
func fixtureAPI(t *testing.T) string {
	t.Helper()
	acctest.SkipUnlessAcc(t)
	db := filepath.Join(t.TempDir(), "api.db")
	// The local API creates its tables; the records go in while it is
	// closed.
	srv, err := localapi.New(localapi.Options{DBPath: db})
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.Close(); err != nil {
		t.Fatal(err)
	}
	conn, err := sql.Open("sqlite", db)
	if err != nil {
		t.Fatal(err)
	}
	_, err = conn.ExecContext(context.Background(), string(readFile(t, filepath.Join(upgradeFixture, "api_records.sql"))))
	if err := errors.Join(err, conn.Close()); err != nil {
		t.Fatal(err)
	}
	host, _ := acctest.IsolatedAPIWith(t, localapi.Options{DBPath: db}, nil)
	return host
}

// collectionOfAddr is the collection of a config resource's address.
func collectionOfAddr(t *testing.T, addr string) client.Collection {
	t.Helper()
	typeName, _, _ := strings.Cut(addr, ".")
	for _, k := range framework.Kinds() {
		if k.ConfigTypeName() == typeName {
			return k.Collection
		}
	}
	t.Fatalf("no kind has the resource type of %s", addr)
	return ""
}

func readFile(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(name) //nolint:gosec // G703: the test's fixtures and working directory
	if err != nil {
		t.Fatal(err)
	}
	return b
}
