package acctest

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/configresource"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/framework"
)

// KindCase is one collection kind as the acceptance tests see it: every
// test runs over all kinds from one table, never copied per kind.
type KindCase struct {
	Kind framework.Kind
	// TypeName is the kind's config resource type.
	TypeName string
	// Plugins are two plugins of the kind.
	Plugins []int64
	// OtherPlugin is a plugin of another kind, and OtherType its config
	// resource type.
	OtherPlugin int64
	OtherType   string
}

// KindCases returns the table of kinds.
func KindCases(t testing.TB) []KindCase {
	t.Helper()
	kinds := framework.Kinds()
	cases := make([]KindCase, len(kinds))
	for i, k := range kinds {
		other := kinds[(i+1)%len(kinds)]
		cases[i] = KindCase{
			Kind:        k,
			TypeName:    k.ConfigTypeName(),
			Plugins:     Plugins(t, k.Name),
			OtherPlugin: Plugins(t, other.Name)[0],
			OtherType:   other.ConfigTypeName(),
		}
	}
	return cases
}

// ForEachKind runs f as a subtest per kind.
func ForEachKind(t *testing.T, f func(t *testing.T, tc KindCase)) {
	for _, tc := range KindCases(t) {
		t.Run(tc.Kind.Name, func(t *testing.T) { f(t, tc) })
	}
}

// Config renders a provider block and one resource of tc's type. The
// provider uses the scoped write key (plugin:read plugin:write, one
// project): everything a user does must work with such a key.
func (tc KindCase) Config(name, body string) string {
	return ProviderConfig(KeyWrite) + tc.Resource(name, body)
}

// Resource renders one resource of tc's type.
func (tc KindCase) Resource(name, body string) string {
	return fmt.Sprintf("\nresource %q %q {\n%s\n}\n", tc.TypeName, name, body)
}

// pluginInfo is what the checks read from a record's plugin_info.
type pluginInfo struct {
	Name        string `json:"name"`
	Description string `json:"description"`
}

func infoOf(rec *client.Record) (pluginInfo, error) {
	var info pluginInfo
	err := json.Unmarshal(rec.PluginInfo, &info)
	return info, err
}

// APIRecord is what a step expects of the API's record; zero fields are not
// checked, except that the record must be active.
type APIRecord struct {
	Plugin      int64
	Enabled     *bool
	Order       *int64
	Name        string // FromPlugin: the plugin's own name
	Description string // FromPlugin: the plugin's own description
	Filters     string // "null" for none (null or {}); compared the way the service normalises
}

// FromPlugin, as an APIRecord's name or description, is the plugin's own.
const FromPlugin = "<plugin>"

// Ptr returns a pointer to v, for APIRecord's optional fields.
func Ptr[T any](v T) *T { return &v }

// CheckAPI checks the API's record of the resource at addr against want,
// and that Terraform's state says the same as the API.
func (tc KindCase) CheckAPI(t *testing.T, addr string, want APIRecord) resource.TestCheckFunc {
	var state *terraform.State
	return resource.ComposeAggregateTestCheckFunc(
		func(s *terraform.State) error { state = s; return nil },
		CheckAPIRecord(t, tc.Kind.Collection, addr, func(rec *client.Record) error {
			info, err := infoOf(rec)
			if err != nil {
				return fmt.Errorf("plugin_info: %w", err)
			}
			var errs []string
			fail := func(format string, args ...any) { errs = append(errs, fmt.Sprintf(format, args...)) }
			if rec.Deleted {
				fail("deleted")
			}
			if want.Plugin != 0 && rec.Plugin != want.Plugin {
				fail("plugin %d, want %d", rec.Plugin, want.Plugin)
			}
			if want.Enabled != nil && rec.Enabled != *want.Enabled {
				fail("enabled %v, want %v", rec.Enabled, *want.Enabled)
			}
			if want.Order != nil && rec.Order != *want.Order {
				fail("order %d, want %d", rec.Order, *want.Order)
			}
			for _, f := range []struct {
				name      string
				got       *string
				want, own string
			}{{"name", rec.Name, want.Name, info.Name}, {"description", rec.Description, want.Description, info.Description}} {
				w := f.want
				if w == FromPlugin {
					w = f.own
				}
				if w != "" && (f.got == nil || *f.got != w) {
					fail("%s %v, want %q", f.name, Deref(f.got), w)
				}
			}
			if want.Filters != "" {
				got := "null"
				if len(rec.Filters) > 0 {
					got = string(rec.Filters)
				}
				if want.Filters == "null" && !configresource.FiltersNone(got) || want.Filters != "null" && !configresource.FiltersEqual(got, want.Filters) {
					fail("filters %s, want %s", got, want.Filters)
				}
			}

			// Terraform's state must say what the API says.
			attrs := state.RootModule().Resources[addr].Primary.Attributes
			for attr, api := range map[string]string{
				"plugin": strconv.FormatInt(rec.Plugin, 10), "enabled": strconv.FormatBool(rec.Enabled),
				"order": strconv.FormatInt(rec.Order, 10), "created_at": rec.CreatedAt,
			} {
				if attrs[attr] != api {
					fail("state %s = %q, API %q", attr, attrs[attr], api)
				}
			}
			for _, f := range []struct {
				attr    string
				api     *string
				plugins string
			}{{"name", rec.Name, info.Name}, {"description", rec.Description, info.Description}} {
				st, set := attrs[f.attr]
				if !StateTextMatches(st, set, f.api, f.plugins) {
					fail("state %s = %q, API %q", f.attr, st, Deref(f.api))
				}
			}
			// No filters in state are none on the service: null, or the {}
			// that clearing them stores.
			if sf := attrs["filters"]; sf == "" && !configresource.FiltersNone(string(rec.Filters)) ||
				sf != "" && !configresource.FiltersEqual(sf, string(rec.Filters)) {
				fail("state filters %s, API %s", sf, rec.Filters)
			}
			if len(errs) > 0 {
				return fmt.Errorf("%s", strings.Join(errs, "; "))
			}
			return nil
		}),
	)
}

// StateTextMatches reports whether a name or description in state (text,
// and whether it is set: null is absent from the state's attributes) says
// what the API shows (api): the same, or configured text the service
// stored stripped, or a configured blank for which the service shows the
// plugin's own (plugins, "" for null).
func StateTextMatches(state string, set bool, api *string, plugins string) bool {
	switch {
	case !set:
		return api == nil
	case configresource.IsBlank(state):
		return api == nil || *api == "" || *api == plugins
	}
	return api != nil && configresource.Stored(state) == *api
}

// Deref renders an optional string of a record, "<nil>" for none.
func Deref(s *string) string {
	if s == nil {
		return "<nil>"
	}
	return *s
}

// CheckDeletedOnAPI checks that the config with *id is soft-deleted (and so
// disabled) on the API, or gone.
func (tc KindCase) CheckDeletedOnAPI(t *testing.T, id *int64) resource.TestCheckFunc {
	return func(*terraform.State) error {
		rec, err := API(t).Get(context.Background(), ProjectID(t), tc.Kind.Collection, *id)
		switch {
		case client.IsNotFound(err):
			return nil
		case err != nil:
			return err
		case !rec.Deleted || rec.Enabled:
			return fmt.Errorf("config %d is still active: deleted=%v enabled=%v", *id, rec.Deleted, rec.Enabled)
		}
		return nil
	}
}

// OutOfBand changes the config with *id on the API behind Terraform's back.
func (tc KindCase) OutOfBand(t *testing.T, id *int64, change func(ctx context.Context, c *client.Client, project string, id int64) error) func() {
	return func() {
		if err := change(context.Background(), API(t), ProjectID(t), *id); err != nil {
			t.Fatalf("changing config %d out of band: %v", *id, err)
		}
	}
}
