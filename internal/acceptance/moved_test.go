package acceptance

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/acctest"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/localapi"
)

// Switching from the generic REST providers (the guide "Switching from
// restapi or restful"): a state written with restapi_object or
// restful_resource resources, as those providers write it
// (../shared/peers/generic-rest-providers.md), taken over by this
// provider's resources through moved blocks. The peers are stand-ins
// (package standin) installed from a mirror under the peer's address: init
// needs the provider a state names, even once its resources move.

// peerFixture is a generic REST provider as standin/peers.json describes
// it.
type peerFixture struct {
	name          string
	Source        string            `json:"source"`
	Version       string            `json:"version"`
	Resource      string            `json:"resource"`
	SchemaVersion int               `json:"schema_version"`
	Identity      bool              `json:"identity"`
	Attributes    map[string]string `json:"attributes"`
}

// genericPeers returns restapi and restful, as the stand-in declares them.
func genericPeers(t *testing.T) []peerFixture {
	t.Helper()
	var peers map[string]peerFixture
	if err := json.Unmarshal(readFile(t, filepath.Join("standin", "peers.json")), &peers); err != nil {
		t.Fatal(err)
	}
	out := make([]peerFixture, 0, len(peers))
	for name, p := range peers {
		p.name = name
		out = append(out, p)
	}
	slices.SortFunc(out, func(a, b peerFixture) int { return strings.Compare(a.name, b.name) })
	return out
}

// registryHost is the registry the run's tool names providers after.
func registryHost(t *testing.T) string {
	if acctest.CurrentTool(t).OpenTofu {
		return "registry.opentofu.org"
	}
	return "registry.terraform.io"
}

// standin returns the peer's stand-in, installed under both registries.
func (p peerFixture) standin(t *testing.T) *acctest.MirroredProvider {
	t.Helper()
	return acctest.BuildProvider(t, "./internal/acceptance/standin", "-X main.peer="+p.name, p.Version,
		"registry.terraform.io/"+p.Source, "registry.opentofu.org/"+p.Source)
}

// movedConfig is one config a peer's resource held.
type movedConfig struct {
	name string
	coll client.Collection
	// path is the collection path the peer's resource was written with.
	path string
	// id is the config's id as the peer keeps it.
	id string
	// body is what the user wrote for the peer (restapi's data, restful's
	// body); record the service's answer the peer kept.
	body, record json.RawMessage
}

// attributes are the state attributes the peer writes for c: the facts
// file's shapes, null for every attribute the peer declares and c leaves
// unset.
func (p peerFixture) attributes(c movedConfig) map[string]any {
	attrs := map[string]any{}
	switch p.name {
	case "restapi":
		attrs["id"], attrs["path"] = c.id, c.path
		attrs["data"], attrs["api_response"], attrs["create_response"] = string(c.body), string(c.record), string(c.record)
		attrs["api_data"] = map[string]string{"id": c.id, "deleted": "false", "delivery_rate_24h": "<nil>"}
		attrs["ignore_server_additions"] = true
	case "restful":
		attrs["id"], attrs["path"] = c.path+"/"+c.id, c.path
		attrs["read_path"] = "$(path)/$(body.id)"
		attrs["body"], attrs["output"] = dynamicValue(c.body), dynamicValue(c.record)
	}
	for name := range p.Attributes {
		if _, ok := attrs[name]; !ok {
			attrs[name] = nil
		}
	}
	return attrs
}

// dynamicValue is a JSON value as a state stores a dynamic attribute:
// {"value": ..., "type": its implied type}.
func dynamicValue(raw json.RawMessage) map[string]any {
	var v any
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	_ = d.Decode(&v)
	return map[string]any{"value": v, "type": impliedType(v)}
}

// impliedType is the cty type (in its JSON form) of a JSON value.
func impliedType(v any) any {
	switch v := v.(type) {
	case map[string]any:
		attrs := map[string]any{}
		for k, e := range v {
			attrs[k] = impliedType(e)
		}
		return []any{"object", attrs}
	case []any:
		elems := make([]any, len(v))
		for i, e := range v {
			elems[i] = impliedType(e)
		}
		return []any{"tuple", elems}
	case string:
		return "string"
	case json.Number:
		return "number"
	case bool:
		return "bool"
	default:
		return "dynamic"
	}
}

// peerState is a state file (format 4) of the peer's resources, one per
// config, written by the run's tool (restful's identity on 1.12+).
func (p peerFixture) peerState(t *testing.T, configs []movedConfig) string {
	t.Helper()
	tool := acctest.CurrentTool(t)
	var resources []any
	for _, c := range configs {
		instance := map[string]any{
			"schema_version": p.SchemaVersion, "attributes": p.attributes(c), "sensitive_attributes": []any{},
		}
		if p.Identity && tool.Version.Segments()[1] >= 12 {
			doc, _ := json.Marshal(map[string]any{"id": c.path + "/" + c.id, "path": c.path})
			instance["identity_schema_version"] = 0
			instance["identity"] = map[string]any{"id": string(doc)}
		}
		resources = append(resources, map[string]any{
			"mode": "managed", "type": p.Resource, "name": c.name,
			"provider":  fmt.Sprintf("provider[%q]", registryHost(t)+"/"+p.Source),
			"instances": []any{instance},
		})
	}
	b, err := json.MarshalIndent(map[string]any{
		"version": 4, "terraform_version": tool.Version.String(), "serial": 3,
		"lineage": "4f1c7d2e-0b1a-4c55-9e0f-6a1d2b3c4d5e", "outputs": map[string]any{}, "resources": resources,
		"check_results": nil,
	}, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// rawRecord is the service's answer for a config, as the peers kept it.
func rawRecord(t *testing.T, host string, coll client.Collection, id int64) json.RawMessage {
	t.Helper()
	req, err := http.NewRequestWithContext(context.Background(), http.MethodGet,
		fmt.Sprintf("%s/api/projects/1/%s/%d/", host, coll, id), nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+localapi.KeyFull)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = resp.Body.Close() }()
	b, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("GET config %d: %d %s %v", id, resp.StatusCode, b, err)
	}
	return b
}

// switchingGuide names the examples of the guide "Switching from restapi
// or restful", whose files the tests run.
const switchingGuide = "switching-from-restapi-or-restful"

// ourResources are the guide's configuration after the switch: this
// provider's resources geo and bq, with the content the service holds for
// the configs of a switch.
func ourResources(t *testing.T) string {
	t.Helper()
	return guideFile(t, switchingGuide, "1-after", "main.tf")
}

// movedBlocks are the guide's moved blocks from the peer's resources geo
// and bq to ours.
func movedBlocks(t *testing.T, p peerFixture) string {
	t.Helper()
	return guideFile(t, switchingGuide, "2-moved-"+p.name, "moved.tf")
}

// flatten joins the lines of Terraform's output, which wraps diagnostics
// (and boxes them, on a terminal), so that a phrase can be looked for.
func flatten(out string) string {
	return regexp.MustCompile(`[\s│]+`).ReplaceAllString(out, " ")
}

// writes are the requests of the local API's counters that change records.
func writes(c map[string]int64) int64 {
	return c["create"] + c["update"] + c["delete"] + c["rearrange"] + c["migrate"]
}

// peerSwitch is a switch from a peer: a local API of its own, as the
// service is today, holding a transformation config (with a plain and a
// secret setting, which the body the user wrote for the peer held too) and
// an import-app config made before July 2025, and the state the peer's
// resources geo and bq wrote for them.
type peerSwitch struct {
	p       peerFixture
	host    string
	local   *localapi.Server
	api     *client.Client
	geo, bq *client.Record
	state   string
}

func newPeerSwitch(t *testing.T, p peerFixture) *peerSwitch {
	t.Helper()
	sw := &peerSwitch{p: p}
	sw.host, sw.local = acctest.IsolatedTodayAPI(t, nil, func(c *client.Client) {
		sw.geo = acctest.MustCreate(t, c, client.Transformations, client.RecordInput{
			Plugin: client.Some[int64](1), Order: client.Some[int64](1), Enabled: client.Some(true),
			Name: client.Some("GeoIP, moved"), Filters: client.Some(json.RawMessage(`{"events":[{"id":"$pageview","type":"events"}]}`)),
			Settings: client.Some(json.RawMessage(`{"locale":"en","api_key":"s3cr3t-key"}`)),
		})
		sw.bq = acctest.MustCreate(t, c, client.ImportApps, client.RecordInput{
			Plugin: client.Some[int64](4), Order: client.Some[int64](1), Enabled: client.Some(true),
		})
	})
	host := sw.host
	sw.api = acctest.ClientFor(t, host, localapi.KeyFull)
	sw.state = p.peerState(t, []movedConfig{
		{
			name: "geo", coll: client.Transformations, path: "/api/projects/1/" + string(client.Transformations),
			id: client.FormatID(sw.geo.ID),
			body: json.RawMessage(`{"config":{"api_key":"s3cr3t-key","locale":"en"},"enabled":true,` +
				`"filters":{"events":[{"id":"$pageview","type":"events"}]},"name":"GeoIP, moved","order":1,"plugin":1}`),
			record: rawRecord(t, host, client.Transformations, sw.geo.ID),
		},
		{
			name: "bq", coll: client.ImportApps, path: "/api/projects/1/" + string(client.ImportApps),
			id: client.FormatID(sw.bq.ID), body: json.RawMessage(`{"enabled":true,"order":1,"plugin":4}`),
			record: rawRecord(t, host, client.ImportApps, sw.bq.ID),
		},
	})
	return sw
}

// terraform is a working directory with config (after the provider
// block), the peer's state, and the peer's stand-in.
func (sw *peerSwitch) terraform(t *testing.T, config string) *acctest.Terraform {
	t.Helper()
	return acctest.NewTerraformWith(t, acctest.ProviderBlock(sw.host, localapi.KeyWrite, "1")+config, acctest.TerraformSetup{
		Files:     map[string]string{"terraform.tfstate": sw.state},
		Providers: []*acctest.MirroredProvider{sw.p.standin(t)},
	})
}

// applyTakesOver plans into a file, checks the plan with check, applies it
// and checks the result: no write to the service, this provider's
// resources with the configs' ids and nothing else in the state, no
// secret in it, the configs unchanged on the service, and an empty next
// plan.
func (sw *peerSwitch) applyTakesOver(t *testing.T, tf *acctest.Terraform, check func(plan map[string]resourceChange)) {
	t.Helper()
	out, err := tf.Run("plan", "-no-color", "-out=switch.tfplan")
	if err != nil {
		t.Fatalf("plan: %v\n%s", err, out)
	}
	check(savedPlan(t, tf, "switch.tfplan"))

	sw.local.ResetCounters()
	if out, err := tf.Run("apply", "-no-color", "switch.tfplan"); err != nil {
		t.Fatalf("apply: %v\n%s", err, out)
	}
	if c := sw.local.Counters(); writes(c) != 0 {
		t.Errorf("the apply wrote to the service: %v", c)
	}
	want := map[string]int64{"pipeline_transformation_config.geo": sw.geo.ID, "pipeline_import_app_config.bq": sw.bq.ID}
	if ids := tf.StateIDs(); !maps.Equal(ids, want) {
		t.Errorf("state after the apply %v, want %v and nothing else", ids, want)
	}
	if b := readFile(t, filepath.Join(tf.Dir, "terraform.tfstate")); bytes.Contains(b, []byte("s3cr3t-key")) {
		t.Error("the state holds the secret the peer's body held")
	}
	sw.checkUnchanged(t)
	tf.EmptyPlan("after the switch")
}

// checkUnchanged checks that the configs are on the service as they were
// created.
func (sw *peerSwitch) checkUnchanged(t *testing.T) {
	t.Helper()
	for coll, rec := range map[client.Collection]*client.Record{client.Transformations: sw.geo, client.ImportApps: sw.bq} {
		now, err := sw.api.Get(context.Background(), "1", coll, rec.ID)
		if err != nil {
			t.Fatal(err)
		}
		if now.UpdatedAt != rec.UpdatedAt || now.Deleted || !now.Enabled {
			t.Errorf("config %d changed on the service: %+v", rec.ID, now)
		}
	}
}

// openTofuKeepsIdentity reports whether the run's tool is an OpenTofu that
// cannot move the peer's resources: OpenTofu (1.12.6 at least) neither
// sends the source's identity to the provider nor takes the identity the
// provider answers; it keeps the source's, which restful writes from
// version 1.12 on, and its refresh then fails before it reaches this
// provider, the identity not being this resource's.
func openTofuKeepsIdentity(t *testing.T, p peerFixture) bool {
	tl := acctest.CurrentTool(t)
	return tl.OpenTofu && p.Identity && tl.Version.Segments()[1] >= 12
}

// TestAccMoved_fromGenericREST: per peer, a state its resources wrote for a
// transformation config (with settings and a secret in the body the user
// wrote) and an import-app config, switched to this provider with moved
// blocks. The plan moves both and creates, changes and destroys nothing,
// and warns that the settings in the body were not moved; the apply writes
// nothing to the service; the state holds this provider's resources with
// the same ids and no secret; the next plan is empty. A plan that skips
// the refresh is refused, saying why. On OpenTofu, whose moves keep the
// source's identity, restful's (1.12+) fails the plan and nothing changes:
// the guide says to import instead (TestAccMoved_importInstead).
func TestAccMoved_fromGenericREST(t *testing.T) {
	for _, p := range genericPeers(t) {
		t.Run(p.name, func(t *testing.T) {
			t.Parallel()
			sw := newPeerSwitch(t, p)
			tf := sw.terraform(t, ourResources(t)+movedBlocks(t, p))

			if openTofuKeepsIdentity(t, p) {
				sw.local.ResetCounters()
				out, code := tf.PlanExitCode()
				if code != 1 || !strings.Contains(flatten(out), `attribute "project_id" is required`) {
					t.Errorf("plan on %s: exit code %d, want 1 and OpenTofu's error about the identity it kept:\n%s",
						acctest.CurrentTool(t), code, out)
				}
				if got := readFile(t, filepath.Join(tf.Dir, "terraform.tfstate")); string(got) != sw.state {
					t.Errorf("the state changed:\n%s", got)
				}
				if c := sw.local.Counters(); writes(c) != 0 {
					t.Errorf("the failed plan wrote to the service: %v", c)
				}
				sw.checkUnchanged(t)
				return
			}

			// Without a refresh the moved state holds only project and id.
			if out, code := tf.PlanExitCode("-refresh=false"); code != 1 || !strings.Contains(flatten(out), "has not been read yet") {
				t.Errorf("plan -refresh=false: exit code %d, want 1 and an error that says the config was not read:\n%s", code, out)
			}
			out, _ := tf.PlanExitCode()
			if flat := flatten(out); !strings.Contains(flat, "Plugin settings not moved") || !strings.Contains(flat, "(api_key, locale)") {
				t.Errorf("the plan does not warn that the settings in the %s's body were not moved:\n%s", p.Resource, out)
			}
			if strings.Contains(out, "s3cr3t-key") {
				t.Errorf("the plan shows the secret:\n%s", out)
			}
			sw.applyTakesOver(t, tf, func(plan map[string]resourceChange) {
				checkOnly(t, plan, map[string]resourceChange{
					"pipeline_transformation_config.geo": {PreviousAddress: p.Resource + ".geo", Actions: []string{"no-op"}},
					"pipeline_import_app_config.bq":      {PreviousAddress: p.Resource + ".bq", Actions: []string{"no-op"}},
				})
			})
		})
	}
}

// TestAccMoved_importInstead: the guide's way without moved blocks (its
// files), which works on every tool (OpenTofu with restful's identities
// included): removed blocks that forget the peer's resources and import
// blocks that take the configs over. The plan imports and forgets, creating and
// destroying nothing; the rest as for a move. (OpenTofu's plan shows the
// forgotten resources' attributes, the body the user wrote included.)
func TestAccMoved_importInstead(t *testing.T) {
	for _, p := range genericPeers(t) {
		t.Run(p.name, func(t *testing.T) {
			t.Parallel()
			sw := newPeerSwitch(t, p)
			tf := sw.terraform(t, ourResources(t)+importBlocks(t, p, sw.geo.ID, sw.bq.ID))
			sw.applyTakesOver(t, tf, func(plan map[string]resourceChange) {
				checkOnly(t, plan, map[string]resourceChange{
					"pipeline_transformation_config.geo": {Importing: true, Actions: []string{"no-op"}},
					"pipeline_import_app_config.bq":      {Importing: true, Actions: []string{"no-op"}},
					p.Resource + ".geo":                  {Actions: []string{"forget"}},
					p.Resource + ".bq":                   {Actions: []string{"forget"}},
				})
			})
		})
	}
}

// importBlocks are the guide's removed and import blocks, for the peer's
// resource type and the configs geoID and bqID (the guide's ids are
// examples).
func importBlocks(t *testing.T, p peerFixture, geoID, bqID int64) string {
	t.Helper()
	blocks := guideFile(t, switchingGuide, "3-import", "imports.tf")
	for old, repl := range map[string]string{
		"from = restapi_object.": "from = " + p.Resource + ".",
		`id = "1/1004"`:          fmt.Sprintf(`id = "1/%d"`, geoID),
		`id = "1/1001"`:          fmt.Sprintf(`id = "1/%d"`, bqID),
	} {
		if !strings.Contains(blocks, old) {
			t.Fatalf("the guide's import blocks have no %q", old)
		}
		blocks = strings.ReplaceAll(blocks, old, repl)
	}
	return blocks
}

// resourceChange is what a test looks at in a resource change of a saved
// plan.
type resourceChange struct {
	PreviousAddress string
	Actions         []string
	Importing       bool
}

// savedPlan returns the resource changes of a saved plan, by terraform
// show -json.
func savedPlan(t *testing.T, tf *acctest.Terraform, file string) map[string]resourceChange {
	t.Helper()
	out, err := tf.Run("show", "-json", file)
	if err != nil {
		t.Fatalf("show: %v\n%s", err, out)
	}
	var plan struct {
		ResourceChanges []struct {
			Address         string `json:"address"`
			PreviousAddress string `json:"previous_address"`
			Change          struct {
				Actions   []string        `json:"actions"`
				Importing json.RawMessage `json:"importing"`
			} `json:"change"`
		} `json:"resource_changes"`
	}
	// OpenTofu may print warnings before the JSON.
	if i := strings.IndexByte(out, '{'); i > 0 {
		out = out[i:]
	}
	if err := json.Unmarshal([]byte(out), &plan); err != nil {
		t.Fatalf("plan JSON: %v\n%s", err, out)
	}
	changes := map[string]resourceChange{}
	for _, rc := range plan.ResourceChanges {
		changes[rc.Address] = resourceChange{
			PreviousAddress: rc.PreviousAddress, Actions: rc.Change.Actions,
			Importing: len(rc.Change.Importing) > 0 && string(rc.Change.Importing) != "null",
		}
	}
	return changes
}

// checkOnly checks that a plan's resource changes are exactly want.
func checkOnly(t *testing.T, plan map[string]resourceChange, want map[string]resourceChange) {
	t.Helper()
	for addr, got := range plan {
		w, ok := want[addr]
		if !ok || got.PreviousAddress != w.PreviousAddress || got.Importing != w.Importing || !slices.Equal(got.Actions, w.Actions) {
			t.Errorf("plan: %s %+v, want %+v", addr, got, w)
		}
	}
	for addr := range want {
		if _, ok := plan[addr]; !ok {
			t.Errorf("the plan has no change for %s", addr)
		}
	}
}

// TestAccMoved_refusedPath: a peer resource that is not a config of the
// target's collection (a hog function of another API path, for restapi;
// an import-app config moved to a transformation config, for restful)
// fails the plan with an error naming its path, and the apply too; the
// state file and the service stay as they were.
func TestAccMoved_refusedPath(t *testing.T) {
	for _, p := range genericPeers(t) {
		t.Run(p.name, func(t *testing.T) {
			t.Parallel()
			host, local := acctest.IsolatedAPI(t, nil)
			api := acctest.ClientFor(t, host, localapi.KeyFull)
			bq := acctest.MustCreate(t, api, client.ImportApps, client.RecordInput{
				Plugin: client.Some[int64](4), Order: client.Some[int64](1), Enabled: client.Some(true),
			})
			record := rawRecord(t, host, client.ImportApps, bq.ID)
			wrong := movedConfig{
				name: "geo", path: "/api/projects/1/hog_functions", id: "0197a3d2-5f1e-7c3b-9a41-2b8e6f0d4c11",
				body: json.RawMessage(`{"name":"GeoIP","type":"transformation"}`), record: record,
			}
			wantInError := []string{`"hog_functions"`, "pipeline_transformation_configs"}
			if p.name == "restful" {
				// An import-app config named as the transformation one.
				wrong = movedConfig{name: "geo", path: "/api/projects/1/" + string(client.ImportApps), id: client.FormatID(bq.ID),
					body: json.RawMessage(`{"plugin":4}`), record: record}
				wantInError = []string{string(client.ImportApps), "move it to pipeline_import_app_config"}
			}
			bqAsPeer := movedConfig{name: "bq", path: "/api/projects/1/" + string(client.ImportApps), id: client.FormatID(bq.ID),
				body: json.RawMessage(`{"plugin":4}`), record: record}
			state := p.peerState(t, []movedConfig{wrong, bqAsPeer})
			tf := acctest.NewTerraformWith(t, acctest.ProviderBlock(host, localapi.KeyWrite, "1")+ourResources(t)+movedBlocks(t, p), acctest.TerraformSetup{
				Files:     map[string]string{"terraform.tfstate": state},
				Providers: []*acctest.MirroredProvider{p.standin(t)},
			})
			local.ResetCounters()

			out, code := tf.PlanExitCode()
			flat := flatten(out)
			if code != 1 || !strings.Contains(flat, "Cannot move "+p.Resource+" into pipeline_transformation_config") {
				t.Errorf("plan: exit code %d, want 1 and the move refused:\n%s", code, out)
			}
			for _, w := range wantInError {
				if !strings.Contains(flat, w) {
					t.Errorf("the error does not say %q:\n%s", w, out)
				}
			}
			if out, err := tf.Run("apply", "-auto-approve", "-no-color"); err == nil {
				t.Errorf("apply succeeded:\n%s", out)
			}
			if got := readFile(t, filepath.Join(tf.Dir, "terraform.tfstate")); !bytes.Equal(got, []byte(state)) {
				t.Errorf("the state changed:\n%s", got)
			}
			if _, err := os.Stat(filepath.Join(tf.Dir, "terraform.tfstate.backup")); err == nil {
				t.Error("the refused plan and apply wrote a new state (terraform.tfstate.backup exists)")
			}
			if c := local.Counters(); writes(c) != 0 || c["create"] != 0 {
				t.Errorf("the refused move wrote to the service: %v", c)
			}
		})
	}
}
