package collection_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/acctest"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/kind"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/record"
)

// kindCase is one collection kind as the acceptance tests see it: every
// test runs over all kinds from one table, never copied per kind.
type kindCase struct {
	kind     kind.Kind
	typeName string
	// plugins are two plugins of the kind.
	plugins []int64
	// otherPlugin is a plugin of another kind, and otherType its resource.
	otherPlugin int64
	otherType   string
}

func typeName(k kind.Kind) string { return "pipeline" + k.ConfigTypeSuffix() }

// kindCases returns the table of kinds.
func kindCases(t testing.TB) []kindCase {
	t.Helper()
	kinds := kind.Kinds()
	cases := make([]kindCase, len(kinds))
	for i, k := range kinds {
		other := kinds[(i+1)%len(kinds)]
		cases[i] = kindCase{
			kind:        k,
			typeName:    typeName(k),
			plugins:     acctest.Plugins(t, k.Name),
			otherPlugin: acctest.Plugins(t, other.Name)[0],
			otherType:   typeName(other),
		}
	}
	return cases
}

// forEachKind runs f as a subtest per kind.
func forEachKind(t *testing.T, f func(t *testing.T, tc kindCase)) {
	for _, tc := range kindCases(t) {
		t.Run(tc.kind.Name, func(t *testing.T) { f(t, tc) })
	}
}

// config renders a provider block and one resource of tc's type. The
// provider uses the scoped write key (plugin:read plugin:write, one
// project): everything a user does must work with such a key.
func (tc kindCase) config(name, body string) string {
	return acctest.ProviderConfig(acctest.KeyWrite) + tc.resource(name, body)
}

// resource renders one resource of tc's type.
func (tc kindCase) resource(name, body string) string {
	return fmt.Sprintf("\nresource %q %q {\n%s\n}\n", tc.typeName, name, body)
}

// pluginInfo is what the tests read from a record's plugin_info.
type pluginInfo struct {
	Name        string `json:"name"`
	Description string `json:"description"`
}

func infoOf(rec *client.Record) (pluginInfo, error) {
	var info pluginInfo
	err := json.Unmarshal(rec.PluginInfo, &info)
	return info, err
}

// apiRecord is what a step expects of the API's record; zero fields are not
// checked, except that the record must be active unless said otherwise.
type apiRecord struct {
	plugin      int64
	enabled     *bool
	order       *int64
	name        string // "<plugin>": the plugin's own name
	description string // "<plugin>": the plugin's own description
	filters     string // "null" for none; compared the way the service normalises
}

const fromPlugin = "<plugin>"

func ptr[T any](v T) *T { return &v }

// checkAPI checks the API's record of the resource at addr against want,
// and that Terraform's state says the same as the API.
func (tc kindCase) checkAPI(t *testing.T, addr string, want apiRecord) resource.TestCheckFunc {
	var state *terraform.State
	return resource.ComposeAggregateTestCheckFunc(
		func(s *terraform.State) error { state = s; return nil },
		acctest.CheckAPIRecord(t, tc.kind.Collection, addr, func(rec *client.Record) error {
			info, err := infoOf(rec)
			if err != nil {
				return fmt.Errorf("plugin_info: %w", err)
			}
			var errs []string
			fail := func(format string, args ...any) { errs = append(errs, fmt.Sprintf(format, args...)) }
			if rec.Deleted {
				fail("deleted")
			}
			if want.plugin != 0 && rec.Plugin != want.plugin {
				fail("plugin %d, want %d", rec.Plugin, want.plugin)
			}
			if want.enabled != nil && rec.Enabled != *want.enabled {
				fail("enabled %v, want %v", rec.Enabled, *want.enabled)
			}
			if want.order != nil && rec.Order != *want.order {
				fail("order %d, want %d", rec.Order, *want.order)
			}
			for _, f := range []struct {
				name      string
				got       *string
				want, own string
			}{{"name", rec.Name, want.name, info.Name}, {"description", rec.Description, want.description, info.Description}} {
				w := f.want
				if w == fromPlugin {
					w = f.own
				}
				if w != "" && (f.got == nil || *f.got != w) {
					fail("%s %v, want %q", f.name, deref(f.got), w)
				}
			}
			if want.filters != "" {
				got := "null"
				if len(rec.Filters) > 0 {
					got = string(rec.Filters)
				}
				if want.filters == "null" && got != "null" || want.filters != "null" && !record.FiltersEqual(got, want.filters) {
					fail("filters %s, want %s", got, want.filters)
				}
			}

			// Terraform's state must say what the API says.
			attrs := state.RootModule().Resources[addr].Primary.Attributes
			for attr, api := range map[string]string{
				"plugin": strconv.FormatInt(rec.Plugin, 10), "enabled": strconv.FormatBool(rec.Enabled),
				"order": strconv.FormatInt(rec.Order, 10), "name": deref(rec.Name),
				"description": deref(rec.Description), "deleted": "false",
				"team_id": strconv.FormatInt(rec.TeamID, 10), "created_at": rec.CreatedAt,
			} {
				if attrs[attr] != api {
					fail("state %s = %q, API %q", attr, attrs[attr], api)
				}
			}
			if sf := attrs["filters"]; (sf == "") != (len(rec.Filters) == 0 || string(rec.Filters) == "null") ||
				sf != "" && !record.FiltersEqual(sf, string(rec.Filters)) {
				fail("state filters %s, API %s", sf, rec.Filters)
			}
			if len(errs) > 0 {
				return fmt.Errorf("%s", strings.Join(errs, "; "))
			}
			return nil
		}),
	)
}

func deref(s *string) string {
	if s == nil {
		return "<nil>"
	}
	return *s
}

// checkDeletedOnAPI checks that the config with *id is soft-deleted (and so
// disabled) on the API, or gone.
func (tc kindCase) checkDeletedOnAPI(t *testing.T, id *int64) resource.TestCheckFunc {
	return func(*terraform.State) error {
		rec, err := acctest.API(t).Get(context.Background(), acctest.ProjectID(t), tc.kind.Collection, *id)
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

// checkID checks that the resource at addr has the config id *id (sameID) or
// another one.
func checkID(addr string, id *int64, same bool) resource.TestCheckFunc {
	return resource.TestCheckResourceAttrWith(addr, "id", func(v string) error {
		if (v == strconv.FormatInt(*id, 10)) != same {
			if same {
				return fmt.Errorf("id %s, want %d (the same config)", v, *id)
			}
			return fmt.Errorf("id %s is still %d, want a new config", v, *id)
		}
		return nil
	})
}

// importID returns the import ID of the resource at addr: "project_id/id",
// or the id alone.
func importID(addr string, withProject bool) resource.ImportStateIdFunc {
	return func(s *terraform.State) (string, error) {
		rs, ok := s.RootModule().Resources[addr]
		if !ok {
			return "", fmt.Errorf("%s is not in state", addr)
		}
		if withProject {
			return rs.Primary.Attributes["project_id"] + "/" + rs.Primary.ID, nil
		}
		return rs.Primary.ID, nil
	}
}

// outOfBand changes the config with *id on the API behind Terraform's back.
func (tc kindCase) outOfBand(t *testing.T, id *int64, change func(ctx context.Context, c *client.Client, project string, id int64) error) func() {
	return func() {
		if err := change(context.Background(), acctest.API(t), acctest.ProjectID(t), *id); err != nil {
			t.Fatalf("changing config %d out of band: %v", *id, err)
		}
	}
}
