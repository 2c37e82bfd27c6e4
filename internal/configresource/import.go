package configresource

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/framework"
)

const importIDFormat = "<project_id>/<id> (e.g. 1/42), or <id> alone when the provider has a project_id"

// ImportState implements resource.ResourceWithImportState: by ID or, on
// Terraform 1.12+, by identity; Read fills in the rest.
func (r *configResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	var project string
	var id int64
	if req.ID != "" {
		var defaultProject string
		if meta := r.Meta(); meta != nil {
			defaultProject = meta.ProjectID
		}
		var err error
		if project, id, err = parseImportID(req.ID, defaultProject); err != nil {
			resp.Diagnostics.AddError("Invalid import ID", err.Error())
		}
	} else {
		var ident identityModel
		resp.Diagnostics.Append(req.Identity.Get(ctx, &ident)...)
		if !resp.Diagnostics.HasError() {
			project, id = framework.ImportProject(ident.ProjectID, r.Meta(), &resp.Diagnostics), ident.ID.ValueInt64()
		}
		if !resp.Diagnostics.HasError() && id <= 0 {
			resp.Diagnostics.AddAttributeError(idPath, "Invalid id",
				fmt.Sprintf("id must be a positive integer, got %d.", id))
		}
	}
	if !resp.Diagnostics.HasError() {
		resp.Diagnostics.Append(storeProjectAndID(ctx, &resp.State, resp.Identity, project, id)...)
	}
}

// storeProjectAndID stores the state of an import or a move: project and id
// alone, which the next read fills in.
func storeProjectAndID(ctx context.Context, state *tfsdk.State, identity *tfsdk.ResourceIdentity, project string, id int64) diag.Diagnostics {
	ident := identityModel{ProjectID: types.StringValue(project), ID: types.Int64Value(id)}
	diags := state.SetAttribute(ctx, framework.ProjectIDPath, ident.ProjectID)
	diags.Append(state.SetAttribute(ctx, idPath, ident.ID)...)
	return append(diags, framework.SetImportedIdentity(ctx, identity, ident)...)
}

// parseImportID parses "project_id/id", or "id" with the provider's project.
func parseImportID(importID, defaultProject string) (string, int64, error) {
	project, rawID, found := strings.Cut(importID, "/")
	if !found {
		project, rawID = defaultProject, importID
		if project == "" {
			return "", 0, fmt.Errorf("import ID %q has no project and the provider has no project_id: "+
				"expected %s", importID, importIDFormat)
		}
	} else if !framework.ValidProjectID(project) {
		return "", 0, fmt.Errorf(`import ID %q: the project must be a positive integer or "@current"; expected %s`,
			importID, importIDFormat)
	}
	id, err := strconv.ParseInt(rawID, 10, 64)
	if err != nil || id <= 0 {
		return "", 0, fmt.Errorf("import ID %q: the config id must be a positive integer; expected %s",
			importID, importIDFormat)
	}
	return project, id, nil
}

// Of a generic REST resource only project and id move, as after an import:
// its body's settings never reached the service, and secrets stay out of state.

const switchingGuide = `the guide "Switching from restapi or restful" (docs/guides/switching-from-restapi-or-restful.md)`

// movedKey is the private-state key of a moved config's origin, kept for the
// errors of its first read.
const movedKey = "moved"

type moveOrigin struct {
	From string `json:"from"`
	Path string `json:"path"`
}

// peer is a generic REST provider whose resource may hold a config.
type peer struct {
	typeName string
	source   string // namespace/type, lower case
	latest   int64  // its resource's schema versions are 0 to latest
	versions string // those versions, as errors name them
	body     string // the attribute holding the request body
	// locate reads where the state says its config is, from its path (a
	// collection of configs, coll) and its id.
	locate   func(coll configAt, path, id string, state map[string]json.RawMessage) (configAt, error)
	expected string // which of its resources are taken; %s is the collection
}

var peers = []peer{
	{
		typeName: "restapi_object", source: "mastercard/restapi", versions: "0", body: "data", locate: restapiConfig,
		expected: "a restapi_object whose path is /api/projects/<project_id>/%s and whose id is the config's id",
	},
	{
		// id and path are the same in every schema version.
		typeName: "restful_resource", source: "magodo/restful", latest: 2, versions: "0, 1 or 2", body: "body", locate: restfulConfig,
		expected: "a restful_resource whose path is /api/projects/<project_id>/%s and whose id is that " +
			"path followed by the config's id (read_path = \"$(path)/$(body.id)\")",
	},
}

// configAt is where a source's state says its config is, the id as written.
type configAt struct {
	project, collection, id string
}

// MoveState implements resource.ResourceWithMoveState: one mover answers
// every source.
func (r *configResource) MoveState(context.Context) []resource.StateMover {
	return []resource.StateMover{{StateMover: r.moveState}}
}

func (r *configResource) moveState(ctx context.Context, req resource.MoveStateRequest, resp *resource.MoveStateResponse) {
	source := fmt.Sprintf("%s (%s)", req.SourceTypeName, req.SourceProviderAddress)
	if req.SourceTypeName == r.kind.ConfigTypeName() {
		r.moveOwn(ctx, req, source, resp)
		return
	}
	for _, k := range framework.Kinds() {
		if req.SourceTypeName == k.ConfigTypeName() {
			resp.Diagnostics.AddError("A config cannot change collection", fmt.Sprintf(
				"%s holds %s (collection %s); %s holds configs of collection %s. The service shows a config "+
					"only in the collection of its plugin's kind, so a config cannot become one of another collection. "+
					"Keep it as %s (a moved block between resources of that type renames it). Nothing was moved.",
				source, withArticle(k.Noun), k.Collection, r.kind.ConfigTypeName(), r.kind.Collection, k.ConfigTypeName()))
			return
		}
	}
	i := slices.IndexFunc(peers, func(p peer) bool {
		return p.typeName == req.SourceTypeName && providerMatches(req.SourceProviderAddress, p.source)
	})
	if i < 0 {
		accepted := make([]string, len(peers))
		for j, p := range peers {
			accepted[j] = fmt.Sprintf("%s (%s)", p.typeName, p.source)
		}
		resp.Diagnostics.AddError("Cannot move "+req.SourceTypeName+" into "+r.kind.ConfigTypeName(), fmt.Sprintf(
			"%s takes moves from %s, and from %s of another provider address; not from %s. Nothing was moved. "+
				"To take over a config from another resource, import it (see %s).",
			r.kind.ConfigTypeName(), strings.Join(accepted, " and "), r.kind.ConfigTypeName(), source, switchingGuide))
		return
	}
	r.movePeer(ctx, req, peers[i], source, resp)
}

func (r *configResource) movePeer(ctx context.Context, req resource.MoveStateRequest, p peer, source string, resp *resource.MoveStateResponse) {
	named := source
	refuse := func(reason string) {
		resp.Diagnostics.AddError("Cannot move "+p.typeName+" into "+r.kind.ConfigTypeName(), fmt.Sprintf(
			"%s cannot become %s: %s.\n\n%s takes %s. Nothing was moved: the state keeps the %s, and "+
				"nothing was sent to the service. See %s.",
			named, withArticle(r.kind.Noun), reason, r.kind.ConfigTypeName(), fmt.Sprintf(p.expected, r.kind.Collection), p.typeName, switchingGuide))
	}
	if req.SourceSchemaVersion < 0 || req.SourceSchemaVersion > p.latest {
		refuse(fmt.Sprintf("its state has schema version %d, and %s states have version %s",
			req.SourceSchemaVersion, p.typeName, p.versions))
		return
	}
	var state map[string]json.RawMessage
	if req.SourceRawState == nil || json.Unmarshal(req.SourceRawState.JSON, &state) != nil || state == nil {
		refuse("its state is not a JSON object of attributes")
		return
	}
	// Terraform names no resource address: the id tells which one it is.
	if id, ok, _ := stringAttribute(state, "id"); ok {
		named += fmt.Sprintf(" with id %q", id)
	}
	at, err := locate(p, state)
	var id int64
	if err == nil {
		id, err = r.checkLocation(at)
	}
	if err != nil {
		refuse(err.Error())
		return
	}

	resp.Diagnostics.Append(storeProjectAndID(ctx, &resp.TargetState, resp.TargetIdentity, at.project, id)...)
	origin := moveOrigin{From: source, Path: fmt.Sprintf("/api/projects/%s/%s/%d", at.project, at.collection, id)}
	resp.Diagnostics.Append(writePrivate(ctx, resp.TargetPrivate, movedKey, origin)...)
	if keys := bodySettings(state[p.body]); len(keys) > 0 {
		resp.Diagnostics.AddWarning("Plugin settings not moved", fmt.Sprintf(
			"The %s's %s sets plugin settings in `config` (%s). They are not moved into the state of %s %d: "+
				"the service ignores `config` in JSON bodies, so %s never set them, and secrets do not belong "+
				"in state. After the move, `config` shows the non-secret settings the service holds. To manage "+
				"settings, set the non-secret ones in `config` and the secret ones in `secret_config_wo` with "+
				"`secret_config_wo_version`; the plan then shows them as a change, which the next apply sends.",
			p.typeName, p.body, strings.Join(keys, ", "), r.kind.Noun, id, p.source))
	}
}

// checkLocation returns the id of at, a config of the resource's collection.
func (r *configResource) checkLocation(at configAt) (int64, error) {
	if at.collection != string(r.kind.Collection) {
		for _, k := range framework.Kinds() {
			if at.collection == string(k.Collection) {
				return 0, fmt.Errorf("it holds %s (collection %s): move it to %s instead",
					withArticle(k.Noun), k.Collection, k.ConfigTypeName())
			}
		}
		return 0, fmt.Errorf("its path names the collection %q of project %s, which is not %s", at.collection, at.project, r.kind.Collection)
	}
	if !framework.ValidProjectID(at.project) {
		return 0, fmt.Errorf("its path names the project %q, which is not a project id (a positive integer or @current)", at.project)
	}
	id, err := strconv.ParseInt(at.id, 10, 64)
	if err != nil || id <= 0 {
		return 0, fmt.Errorf("its id %q is not a config id (a positive integer)", at.id)
	}
	return id, nil
}

// moveOwn moves a config resource of this type from another provider
// address: the state as it is, upgraded, with its plugin facts.
func (r *configResource) moveOwn(ctx context.Context, req resource.MoveStateRequest, source string, resp *resource.MoveStateResponse) {
	refuse := func(reason string) {
		resp.Diagnostics.AddError("Cannot move "+req.SourceTypeName, fmt.Sprintf(
			"The state of %s cannot be taken over: %s. Nothing was moved.", source, reason))
	}
	if req.SourceRawState == nil || len(req.SourceRawState.JSON) == 0 {
		refuse("it is not a JSON object")
		return
	}
	raw := req.SourceRawState.JSON
	switch req.SourceSchemaVersion {
	case 0:
		var err error
		if raw, err = framework.UpgradeJSON(raw, dropRemovedInVersion1); err != nil {
			refuse(err.Error())
			return
		}
	case schemaVersion:
	default:
		refuse(fmt.Sprintf("its schema version %d is newer than this provider's (%d): upgrade the provider",
			req.SourceSchemaVersion, schemaVersion))
		return
	}
	typ := resp.TargetState.Schema.Type().TerraformType(ctx)
	v, err := (&tfprotov6.RawState{JSON: raw}).UnmarshalWithOpts(typ, tfprotov6.UnmarshalOpts{})
	if err != nil {
		refuse("its attributes are not those of this resource: " + err.Error())
		return
	}
	c := configuredOf(v).RecordModel
	if !framework.IsSet(c.ID) {
		refuse("it has no id")
		return
	}
	resp.TargetState.Raw = v
	resp.Diagnostics.Append(SetIdentity(ctx, resp.TargetIdentity, &c)...)
	if facts, ok := readPrivate[pluginFacts](ctx, req.SourcePrivate, pluginFactsKey); ok {
		resp.Diagnostics.Append(writePrivate(ctx, resp.TargetPrivate, pluginFactsKey, facts)...)
	}
}

// providerMatches reports whether addr is the provider source under any
// registry host, none, or as the type alone (older OpenTofu sent that), in
// any letter case, as Terraform compares them.
func providerMatches(addr, source string) bool {
	addr = strings.ToLower(addr)
	_, typ, _ := strings.Cut(source, "/")
	host, rest, _ := strings.Cut(addr, "/")
	return addr == typ || addr == source || host != "" && rest == source
}

// stringAttribute returns a string attribute of a source, and whether it is set.
func stringAttribute(state map[string]json.RawMessage, name string) (string, bool, error) {
	raw, ok := state[name]
	if !ok || string(raw) == "null" {
		return "", false, nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return "", false, fmt.Errorf("its %s is not a string", name)
	}
	return s, true, nil
}

// locate reads every peer's path, a collection of configs, and id, and
// then what the peer says of the config.
func locate(p peer, state map[string]json.RawMessage) (configAt, error) {
	required := func(name string) (string, error) {
		s, ok, err := stringAttribute(state, name)
		if err == nil && (!ok || s == "") {
			err = fmt.Errorf("its state has no %s", name)
		}
		return s, err
	}
	path, err := required("path")
	if err != nil {
		return configAt{}, err
	}
	id, err := required("id")
	if err != nil {
		return configAt{}, err
	}
	coll, ok := parseConfigPath(path, false)
	if !ok {
		return configAt{}, fmt.Errorf("its path %q is not a collection of plugin configs", path)
	}
	return p.locate(coll, path, id, state)
}

// restapiConfig locates the config of a restapi_object: its id; a
// read_path, when set, must read that config.
func restapiConfig(at configAt, p, id string, state map[string]json.RawMessage) (configAt, error) {
	at.id = id
	readPath, set, err := stringAttribute(state, "read_path")
	if err != nil || !set {
		return at, err
	}
	if read, ok := parseConfigPath(strings.ReplaceAll(readPath, "{id}", id), true); !ok || read != at {
		return configAt{}, fmt.Errorf("its read_path %q does not read config %s of its path %q", readPath, id, p)
	}
	return at, nil
}

// restfulConfig locates the config of a restful_resource: its id is the
// config's path, which must lie in its path.
func restfulConfig(coll configAt, p, id string, _ map[string]json.RawMessage) (configAt, error) {
	at, ok := parseConfigPath(id, true)
	switch {
	case !ok:
		if _, isCollection := parseConfigPath(id, false); isCollection {
			return configAt{}, fmt.Errorf("its id %q is a collection, not one config: the resource was written "+
				"without read_path, so it never knew its config's id", id)
		}
		return configAt{}, fmt.Errorf("its id %q is not the path of a config", id)
	case at.project != coll.project || at.collection != coll.collection:
		return configAt{}, fmt.Errorf("its id %q is not in its path %q", id, p)
	}
	return at, nil
}

// parseConfigPath reads /api/projects/<project>/<collection>, with member
// followed by /<id>; a trailing slash, scheme and host, or no /api are fine.
func parseConfigPath(raw string, member bool) (configAt, bool) {
	p := raw
	if u, err := url.Parse(raw); err == nil && u.Scheme != "" && u.Host != "" {
		p = u.Path
	}
	segs := strings.Split(strings.TrimSuffix(strings.TrimPrefix(p, "/"), "/"), "/")
	if len(segs) > 0 && segs[0] == "api" {
		segs = segs[1:]
	}
	want := 3
	if member {
		want = 4
	}
	if len(segs) != want || segs[0] != "projects" || slices.Contains(segs, "") {
		return configAt{}, false
	}
	at := configAt{project: segs[1], collection: segs[2]}
	if member {
		at.id = segs[3]
	}
	return at, true
}

// bodySettings returns the keys of `config` in a peer's body, sorted: a JSON
// string, or a dynamic value stored as {"value": ..., "type": ...}.
func bodySettings(raw json.RawMessage) []string {
	var text string
	if json.Unmarshal(raw, &text) == nil {
		raw = json.RawMessage(text)
	}
	var body struct {
		Value  json.RawMessage `json:"value"`
		Type   json.RawMessage `json:"type"`
		Config map[string]json.RawMessage
	}
	if json.Unmarshal(raw, &body) != nil {
		return nil
	}
	if body.Value != nil && body.Type != nil {
		var inner struct{ Config map[string]json.RawMessage }
		if json.Unmarshal(body.Value, &inner) != nil {
			return nil
		}
		body.Config = inner.Config
	}
	return slices.Sorted(maps.Keys(body.Config))
}

func withArticle(noun string) string {
	if strings.ContainsAny(noun[:1], "aeiou") {
		return "an " + noun
	}
	return "a " + noun
}
