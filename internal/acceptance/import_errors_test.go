package acceptance

import (
	"context"
	"fmt"
	"os/exec"
	"strings"
	"testing"

	"github.com/hashicorp/go-version"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/acctest"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/localapi"
)

// TestAccImportErrors_sayWhatToDo: on today's service, with a key limited to
// its project, each way an import goes wrong gets an error that names the
// cause and the fix, never Terraform's "Cannot import non-existent remote
// object", which offers a create the service refuses: a plugin that is not
// the config's, an unknown id, an unknown project, a config of the other
// collection and a deleted config, by import block, by `terraform import`
// and by identity (Terraform 1.12+). Nothing is written (issue 36, point 3).
func TestAccImportErrors_sayWhatToDo(t *testing.T) {
	acctest.ForEachKind(t, func(t *testing.T, tc acctest.KindCase) {
		t.Parallel()
		var own, other, deleted int64
		host, local := acctest.IsolatedTodayAPI(t, nil, func(c *client.Client) {
			made := func(plugin, order int64) int64 {
				return acctest.MustCreate(t, c, tc.Kind.Collection, client.RecordInput{
					Plugin: client.Some(plugin), Order: client.Some(order), Enabled: client.Some(true),
				}).ID
			}
			// A config of the other kind's plugin, which only the other collection shows.
			own, other, deleted = made(tc.Plugins[0], 1), made(tc.OtherPlugin, 2), made(tc.Plugins[1], 3)
			if _, err := c.Update(context.Background(), "1", tc.Kind.Collection, deleted, client.RecordInput{Deleted: client.Some(true)}); err != nil {
				t.Fatal(err)
			}
		})
		const unknown = 999999
		noun := tc.Kind.Noun
		cases := []struct {
			name     string
			project  string
			id       int64
			plugin   int64
			want     []string
			planOnly bool   // `terraform import` itself succeeds: the plan refuses
			args     string // more arguments of the resource
		}{
			{"a plugin that is not the config's", "1", own, tc.Plugins[1], []string{
				fmt.Sprintf("Cannot replace config %d: its plugin is %d, not %d", own, tc.Plugins[0], tc.Plugins[1]),
				fmt.Sprintf("Set plugin = %d to manage this config", tc.Plugins[0]),
			}, true, ""},
			{"a project that is not the config's", "1", own, tc.Plugins[0], []string{
				fmt.Sprintf("Cannot replace config %d: it is in project 1, not 2", own),
				`Set project_id = "1" to manage this config`,
			}, true, `project_id = "2"`},
			{"an unknown id", "1", unknown, tc.Plugins[0], []string{
				fmt.Sprintf("Cannot import %s %d: no such config", noun, unknown),
				"Check the id", "Terraform cannot create it instead",
			}, false, ""},
			{"an unknown project", "99", own, tc.Plugins[0], []string{
				fmt.Sprintf("Cannot import %s %d: project 99 not found", noun, own),
				"Service detail: Project not found.", "Check the project of the import",
			}, false, ""},
			{"a config of the other collection", "1", other, tc.OtherPlugin, []string{
				fmt.Sprintf("Cannot import config %d as %s: it is %s", other, tc.TypeName, tc.OtherType),
				fmt.Sprintf("Import it into %s instead", tc.OtherType),
			}, false, ""},
			{"a deleted config", "1", deleted, tc.Plugins[1], []string{
				fmt.Sprintf("Cannot import %s %d: it was deleted", noun, deleted),
				fmt.Sprintf(`a PATCH of {"deleted": false} to /api/projects/1/%s/%d/`, tc.Kind.Collection, deleted),
			}, false, ""},
		}
		resource := func(plugin int64, args string) string {
			return todayProvider(host, localapi.KeyWrite) +
				fmt.Sprintf("\nresource %q \"x\" {\n  plugin = %d\n  %s\n}\n", tc.TypeName, plugin, args)
		}
		tf := acctest.NewTerraform(t, resource(tc.Plugins[0], ""), nil)
		refused := func(t *testing.T, how, out string, err error, want []string) {
			t.Helper()
			flat := strings.Join(strings.Fields(out), " ")
			if err == nil {
				t.Errorf("%s succeeded:\n%s", how, out)
			}
			for _, w := range append(want, "Error:") {
				if !strings.Contains(flat, w) {
					t.Errorf("%s does not say %q:\n%s", how, w, out)
				}
			}
			for _, generic := range []string{"Cannot import non-existent remote object", "The service no longer creates"} {
				if strings.Contains(flat, generic) {
					t.Errorf("%s says %q:\n%s", how, generic, out)
				}
			}
		}
		identity := identityImport(t)
		local.ResetCounters()
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				forms := map[string]string{"an import block by id": fmt.Sprintf("id = \"%s/%d\"", c.project, c.id)}
				if identity {
					forms["an import block by identity"] = fmt.Sprintf("identity = { project_id = %q, id = %d }", c.project, c.id)
				}
				for how, target := range forms {
					tf.WriteConfig(resource(c.plugin, c.args) + fmt.Sprintf("\nimport {\n  to = %s.x\n  %s\n}\n", tc.TypeName, target))
					out, err := tf.Run("plan", "-no-color")
					refused(t, "the plan of "+how, out, err, c.want)
				}
				tf.WriteConfig(resource(c.plugin, c.args))
				out, err := tf.Run("import", "-no-color", tc.TypeName+".x", fmt.Sprintf("%s/%d", c.project, c.id))
				if c.planOnly {
					if err != nil {
						t.Fatalf("terraform import: %v\n%s", err, out)
					}
					out, err = tf.Run("plan", "-no-color")
					mustRun(t, tf, "state", "rm", tc.TypeName+".x")
				}
				refused(t, "terraform import", out, err, c.want)
			})
		}
		if c := local.Counters(); c["create"]+c["update"]+c["delete"] != 0 {
			t.Errorf("the refused imports wrote: %v", c)
		}
	})
}

// identityImport reports whether the run's tool imports by identity
// (Terraform and OpenTofu 1.12+); the suite runs again with the newest.
func identityImport(t *testing.T) bool {
	t.Helper()
	if _, err := exec.LookPath(acctest.TerraformBinary()); err != nil {
		return false
	}
	return !acctest.CurrentTool(t).Version.LessThan(version.Must(version.NewVersion("1.12.0")))
}
