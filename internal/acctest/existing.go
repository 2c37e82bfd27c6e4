package acctest

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"testing"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/framework"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/localapi"
)

// ExistingConfig is a config that exists before the test, as on a service
// that no longer creates configs (generation 2): the tests of existing
// configs import, change and read it, and leave it as they found it. It is
// lent to them: they run through Test, which never destroys it (lent.go).
type ExistingConfig struct {
	Kind framework.Kind
	// Host, Key and Project reach it; Key is the key the provider blocks
	// use (ProviderBlock).
	Host, Key, Project string
	// ID is the config's id, Original the record as the test found it.
	ID       int64
	Original *client.Record
	// API is a client with full access to its service.
	API *client.Client
	// Local is the local API holding it; nil against a live instance.
	Local *localapi.Server
	live  bool
	// held are the names of the resource blocks Resource rendered, which
	// Test lets go of.
	held []string
}

// Existing returns an existing config of kind k. Against a live instance
// it is the one EnvExistingConfig(k) names (the test is skipped without
// it). Otherwise it is a config of a local API of the test's own, made
// under generation 1 (with a sibling, so that an order has two configs to
// arrange) before the local API moved to generation 2. When the test ends,
// the config's name, description and enabled flag are set back to what
// they were. The test is skipped when the run's tool cannot let the
// config go (removed blocks with lifecycle { destroy = false }).
func Existing(t *testing.T, k framework.Kind) *ExistingConfig {
	t.Helper()
	SkipUnlessAcc(t)
	if tl := CurrentTool(t); tl.OpenTofu && tl.Version.LessThan(letGoOpenTofu) || !tl.OpenTofu && tl.Version.LessThan(letGoTerraform) {
		t.Skipf("a test of an existing config lets it go with a removed block with lifecycle { destroy = false }, which %s lacks", tl)
	}
	ctx := context.Background()
	ex := &ExistingConfig{Kind: k}
	if IsLive() {
		raw := os.Getenv(EnvExistingConfig(k))
		if raw == "" {
			t.Skipf("set %s to the id of an existing %s of the live instance", EnvExistingConfig(k), k.Noun)
		}
		id, err := strconv.ParseInt(raw, 10, 64)
		if err != nil {
			t.Fatalf("%s: %v", EnvExistingConfig(k), err)
		}
		inst := mustGet(t)
		ex.Host, ex.Key, ex.Project, ex.ID, ex.API, ex.live = inst.host, inst.key, inst.project, id, API(t), true
	} else {
		ex.Host, ex.Local = IsolatedAPI(t, nil)
		ex.Key, ex.Project, ex.API = KeyWrite, localProject, ClientFor(t, ex.Host, KeyFull)
		plugin := localPlugins[k.Name][0]
		for i, name := range []string{"existing", "sibling"} {
			rec, err := ex.API.Create(ctx, ex.Project, k.Collection, client.RecordInput{
				// The sibling first, so that ordering has something to move.
				Plugin: client.Some(plugin), Order: client.Some(int64(2 - i)), Enabled: client.Some(true),
				Name: client.Some(name), Description: client.Some("made under generation 1"),
			})
			if err != nil {
				t.Fatal(err)
			}
			if i == 0 {
				ex.ID = rec.ID
			}
		}
		if err := ex.Local.SetGeneration(localapi.Generation2); err != nil {
			t.Fatal(err)
		}
	}
	rec, err := ex.API.Get(ctx, ex.Project, k.Collection, ex.ID)
	if err != nil {
		t.Fatalf("the existing %s %d: %v", k.Noun, ex.ID, err)
	}
	if rec.Deleted {
		t.Fatalf("the existing %s %d is deleted", k.Noun, ex.ID)
	}
	ex.Original = rec
	t.Cleanup(func() { ex.restore(t) })
	return ex
}

// restore sets the config's name, description and enabled flag back to
// what the test found, where they changed.
func (ex *ExistingConfig) restore(t *testing.T) {
	ctx := context.Background()
	now, err := ex.API.Get(ctx, ex.Project, ex.Kind.Collection, ex.ID)
	if err != nil {
		t.Errorf("restoring %s %d: %v", ex.Kind.Noun, ex.ID, err)
		return
	}
	var in client.RecordInput
	changed := false
	if now.Enabled != ex.Original.Enabled {
		in.Enabled, changed = client.Some(ex.Original.Enabled), true
	}
	for _, f := range []struct {
		was, is *string
		field   *client.Opt[string]
	}{{ex.Original.Name, now.Name, &in.Name}, {ex.Original.Description, now.Description, &in.Description}} {
		if Deref(f.was) != Deref(f.is) {
			*f.field, changed = client.Some(Deref(f.was)), true
			if f.was == nil {
				*f.field = client.Null[string]()
			}
		}
	}
	if !changed {
		return
	}
	if _, err := ex.API.Update(ctx, ex.Project, ex.Kind.Collection, ex.ID, in); err != nil {
		t.Errorf("restoring %s %d: %v", ex.Kind.Noun, ex.ID, err)
	}
}

// ProviderBlock returns the provider block of the tests of this config:
// for the local API its host, Key and project; against a live instance an
// empty block (the environment configures the provider).
func (ex *ExistingConfig) ProviderBlock() string { return ex.ProviderBlockWith(ex.Key) }

// ProviderBlockWith is ProviderBlock with another key of the local API,
// e.g. KeyFull for the custom actions (see LegacyKey for a live instance).
func (ex *ExistingConfig) ProviderBlockWith(key string) string {
	if ex.live {
		return "provider \"pipeline\" {}\n"
	}
	return ProviderBlock(ex.Host, key, ex.Project)
}

// TypeName returns the type name of the kind's construct, e.g.
// pipeline_transformation_order for "order".
func (ex *ExistingConfig) TypeName(construct string) string {
	return "pipeline" + ex.Kind.TypeSuffix(construct)
}

// ImportID is the config's import ID, "<project_id>/<id>".
func (ex *ExistingConfig) ImportID() string { return fmt.Sprintf("%s/%d", ex.Project, ex.ID) }
