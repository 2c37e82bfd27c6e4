package configresource

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"reflect"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-jsontypes/jsontypes"
	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/createonce"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/framework"
)

var (
	_ resource.ResourceWithConfigure      = (*configResource)(nil)
	_ resource.ResourceWithModifyPlan     = (*configResource)(nil)
	_ resource.ResourceWithImportState    = (*configResource)(nil)
	_ resource.ResourceWithIdentity       = (*configResource)(nil)
	_ resource.ResourceWithUpgradeState   = (*configResource)(nil)
	_ resource.ResourceWithValidateConfig = (*configResource)(nil)
	_ resource.ResourceWithMoveState      = (*configResource)(nil)
)

// configResource is the resource pipeline_<kind>_config.
type configResource struct {
	framework.ResourceBase
	kind framework.Kind
}

// New returns the constructor of the config resource of kind k.
func New(k framework.Kind) func() resource.Resource {
	return func() resource.Resource {
		return &configResource{ResourceBase: framework.NewResourceBase(k.ConfigTypeSuffix()), kind: k}
	}
}

// Create makes one POST through package createonce (never two configs). A
// config this collection would not show (another kind's plugin) is deleted again.
func (r *configResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var plan Model
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	meta := r.MustMeta(&resp.Diagnostics)
	ctx, cancel := framework.OperationContext(ctx, plan.Timeouts.Create, framework.DefaultWriteTimeout, &resp.Diagnostics)
	defer cancel()
	if resp.Diagnostics.HasError() {
		return
	}

	// Unknown when planned before the provider's configuration was known.
	project := framework.ProjectOrDefault(plan.ProjectID, meta, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	plan.ProjectID = types.StringValue(project)
	cfg := configuredOf(req.Config.Raw)
	in, err := createInput(&plan.RecordModel, cfg.secret)
	if err != nil {
		resp.Diagnostics.AddAttributeError(settingsPath, "Invalid plugin settings", err.Error())
		return
	}
	settings := in.Settings
	// The POST carries settings only to a service known to store configs
	// (today's turns such a create into a hog function, or refuses it), and
	// secrets only when the plugin's schema checked them; else they follow.
	var found diag.Diagnostics
	told, _ := r.checkAgainstPlugin(ctx, meta, plan.Plugin.ValueInt64(), &cfg, &found)
	checked := told && !found.HasError()
	if stores, known := meta.Client.StoresConfigs(); !known || !stores || framework.IsSet(cfg.secret) && !checked {
		in.Settings = client.Opt[json.RawMessage]{}
	}
	rec, err := createonce.Create(ctx, meta, r.kind, project, createonce.Request{
		Input: in, Settings: settings, SecretKeys: settingKeys(cfg.secret, nil),
		Holds: func(rec *client.Record, fallback bool) bool {
			return madeBy(rec, in) && (!fallback || matchesFallback(rec, in))
		},
	}, &resp.Diagnostics)
	if err != nil {
		r.addCreateError(&resp.Diagnostics, plan.Plugin.ValueInt64(), err)
		return
	}
	defer createonce.HandOver(meta, rec.ID) // from now on, a state may hold it
	ctx = tflog.SetField(ctx, "config_id", rec.ID)
	tflog.Debug(ctx, "created "+r.kind.Noun)

	shown, err := r.showsCreated(ctx, meta.Client, project, rec)
	if err == nil && !shown {
		r.refuseOtherKind(ctx, meta.Client, project, rec, &resp.Diagnostics)
		return
	}
	if err == nil && r.refuseMisplacedSettings(ctx, meta.Client, project, rec, &plan, cfg.secret, &resp.Diagnostics) {
		return
	}
	op := "check the new"
	_, sent := in.Settings.Get()
	if _, has := settings.Get(); err == nil && has && !sent {
		op = "set the plugin settings of the new"
		var updated *client.Record
		updated, err = createonce.SetSettings(ctx, meta, r.kind, project, rec.ID, settings)
		if err == nil {
			rec = updated
		}
	}
	// After an error too: kept in state, tainted, the config is not orphaned.
	r.storeRecord(ctx, rec, &plan, &plan.RecordModel, pluginFacts{}, &resp.State, resp.Private, resp.Identity, &resp.Diagnostics)
	if err != nil {
		r.addError(&resp.Diagnostics, op, rec.ID, err)
	}
}

// Read removes a config the service no longer has from state, so that the
// plan re-creates it.
func (r *configResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	// Raw: most configs of a refresh are unchanged.
	c, ok := configOf(req.State.Raw)
	prior := c.RecordModel
	var limits timeouts.Value
	if !ok {
		var state Model
		resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
		prior, limits = state.RecordModel, state.Timeouts
	}
	meta := r.MustMeta(&resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	createonce.ConfirmInState(ctx, meta, prior.ID) // a removed block's plan refreshes, and plans nothing
	// First: the framework wants one even for a config removed from state.
	resp.Diagnostics.Append(SetIdentity(ctx, resp.Identity, &prior)...)
	ctx, cancel := framework.OperationContext(ctx, limits.Read, framework.DefaultReadTimeout, &resp.Diagnostics)
	defer cancel()
	if resp.Diagnostics.HasError() {
		return
	}

	id := prior.ID.ValueInt64()
	ctx = tflog.SetField(ctx, "config_id", id)
	read := meta.Client.Get // an import's (project and id alone)
	if !prior.Plugin.IsNull() {
		read = meta.ReadCache().Read
	}
	rec, err := read(ctx, prior.ProjectID.ValueString(), r.kind.Collection, id)
	// A config moved in and not read since.
	origin, moved := readPrivate[moveOrigin](ctx, req.Private, movedKey)
	switch {
	case moved && (client.IsNotFound(err) || err == nil && rec.Deleted):
		r.refuseMissingMoved(origin, id, err == nil, &resp.Diagnostics)
		return
	case prior.Plugin.IsNull() && (client.IsNotFound(err) || err == nil && rec.Deleted):
		// An import (project and id alone): nothing to plan a create for.
		r.refuseMissingImport(ctx, meta.Client, prior.ProjectID.ValueString(), id, err, &resp.Diagnostics)
		return
	case client.IsNotFound(err):
		tflog.Warn(ctx, r.kind.Noun+" not found; removing it from state so that it is planned for creation")
		resp.State.RemoveResource(ctx)
		return
	case err != nil:
		r.addError(&resp.Diagnostics, "read", id, err)
		return
	case rec.Deleted:
		tflog.Warn(ctx, r.kind.Noun+" was deleted outside Terraform; removing it from state so that it is planned for creation")
		resp.State.RemoveResource(ctx)
		return
	}

	priorFacts, _ := readPrivate[pluginFacts](ctx, req.Private, pluginFactsKey)
	current := prior
	facts := pluginFactsOf(rec, priorFacts, makesNoConfigs(meta.Client))
	current.fromRecord(rec, facts, false)
	resp.Diagnostics.Append(writePrivate(ctx, resp.Private, pluginFactsKey, facts)...)
	if moved {
		resp.Diagnostics.Append(resp.Private.SetKey(ctx, movedKey, nil)...)
	}
	if current == prior {
		return // the response holds the prior state already
	}
	var state Model
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	state.RecordModel = current
	resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
}

// Update makes one PATCH of the changed fields, none when nothing changes.
func (r *configResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var plan, state, config Model
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	resp.Diagnostics.Append(req.Config.Get(ctx, &config)...)
	meta := r.MustMeta(&resp.Diagnostics)
	ctx, cancel := framework.OperationContext(ctx, plan.Timeouts.Update, framework.DefaultWriteTimeout, &resp.Diagnostics)
	defer cancel()
	if resp.Diagnostics.HasError() {
		return
	}

	id := state.ID.ValueInt64()
	ctx = tflog.SetField(ctx, "config_id", id)
	project := plan.ProjectID.ValueString()
	facts, _ := readPrivate[pluginFacts](ctx, req.Private, pluginFactsKey)
	in, changed := updateInput(&plan.RecordModel, &state.RecordModel, &config.RecordModel)
	settings, err := r.settingsUpdate(ctx, meta.Client, project, id, &plan, &state, &config, facts)
	if err != nil {
		r.addError(&resp.Diagnostics, "update", id, err)
		return
	}
	if !settings.IsZero() {
		in.Settings, changed = settings, true
	}
	if !changed {
		// Nothing for the service (only timeouts changed, say).
		plan.UpdatedAt = state.UpdatedAt
		resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
		resp.Diagnostics.Append(SetIdentity(ctx, resp.Identity, &plan.RecordModel)...)
		return
	}
	defer meta.ReadCache().Invalidate(id) // no page fetched before the write serves it
	rec, err := meta.Client.Update(ctx, project, r.kind.Collection, id, in)
	if err != nil {
		r.addError(&resp.Diagnostics, "update", id, err)
		return
	}
	r.storeRecord(ctx, rec, &plan, &config.RecordModel, facts, &resp.State, resp.Private, resp.Identity, &resp.Diagnostics)
}

// Delete soft-deletes the config; one already gone is fine.
func (r *configResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state Model
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	meta := r.MustMeta(&resp.Diagnostics)
	ctx, cancel := framework.OperationContext(ctx, state.Timeouts.Delete, framework.DefaultWriteTimeout, &resp.Diagnostics)
	defer cancel()
	if resp.Diagnostics.HasError() {
		return
	}

	id := state.ID.ValueInt64()
	ctx = tflog.SetField(ctx, "config_id", id)
	defer meta.ReadCache().Invalidate(id) // no page fetched before the write serves it
	err := softDelete(ctx, meta.Client, state.ProjectID.ValueString(), r.kind.Collection, id)
	if client.IsNotFound(err) {
		tflog.Info(ctx, r.kind.Noun+" already gone")
		return
	}
	if err != nil {
		r.addError(&resp.Diagnostics, "delete", id, err)
		return
	}
	r.warnDeletedForGood(meta, state.ProjectID.ValueString(), id, &resp.Diagnostics)
}

// refuseMissingMoved refuses the first read of a moved config the service
// does not have (deleted): the create a refresh would plan is no move.
func (r *configResource) refuseMissingMoved(o moveOrigin, id int64, deleted bool, diags *diag.Diagnostics) {
	what := "has no config"
	if deleted {
		what = "holds only a deleted config"
	}
	diags.AddError(fmt.Sprintf("No %s %d to move", r.kind.Noun, id), fmt.Sprintf(
		"%s was moved into %s from %s, but the service %s at %s: nothing to take over. The state keeps it "+
			"as it was. If the config is gone for good and a new one is wanted, replace the moved block by a "+
			"removed block for the old resource (lifecycle { destroy = false }), so that the plan creates a "+
			"new config; if the path is wrong, fix the moved block's source.",
		r.kind.Noun, r.kind.ConfigTypeName(), o.From, what, o.Path))
}

// refuseMissingImport says why config id of project cannot be imported (err:
// the read's 404, nil for a deleted config) and what to do, where
// Terraform's own error would offer a create the service may not make.
func (r *configResource) refuseMissingImport(ctx context.Context, c *client.Client, project string, id int64, err error, diags *diag.Diagnostics) {
	switch {
	case err == nil:
		diags.AddError(fmt.Sprintf("Cannot import %s %d: it was deleted", r.kind.Noun, id), fmt.Sprintf(
			"The service shows config %d of project %s with deleted = true: it was deleted, in PostHog's UI or by a "+
				"destroy, and Terraform imports only configs that are not. %s Otherwise remove the import.",
			id, project, restoreNote(project, r.kind.Collection, id)))
	case client.IsProjectNotFound(err):
		diags.AddError(fmt.Sprintf("Cannot import %s %d: project %s not found", r.kind.Noun, id, project), fmt.Sprintf(
			"%s\n\nThe service has no project %s. Check the project of the import: the part of the import ID "+
				"before the slash (1 in 1/42), or the identity's project_id; an import without one uses the provider's "+
				"project_id.", framework.DescribeError(err), project))
	default:
		for _, other := range r.kind.OwnFirst()[1:] { // another kind's collection may show it
			if rec, getErr := c.Get(ctx, project, other.Collection, id); getErr == nil {
				detail := fmt.Sprintf("The %ss of project %s do not show config %d, and the %ss do. Import it into "+
					"%s instead: an import block with to = %s.NAME and id = \"%s/%d\", beside a resource block of that type.",
					r.kind.Noun, project, id, other.Noun, other.ConfigTypeName(), other.ConfigTypeName(), project, id)
				if rec.Deleted {
					detail += " It was deleted, too. " + restoreNote(project, other.Collection, id)
				}
				diags.AddError(fmt.Sprintf("Cannot import config %d as %s: it is %s", id, r.kind.ConfigTypeName(), other.ConfigTypeName()), detail)
				return
			}
		}
		var nouns []string
		for _, k := range r.kind.OwnFirst() {
			nouns = append(nouns, k.Noun+"s")
		}
		detail := fmt.Sprintf("%s\n\nProject %s has no config %d among its %s. Check the id: the data source "+
			"%s lists the configs of a project with their ids.", framework.DescribeError(err), project, id,
			strings.Join(nouns, " or "), framework.ProviderTypeName+r.kind.TypeSuffix("configs"))
		if stores, known := c.LearnStoresConfigs(ctx, project, r.kind.Collection); known && !stores {
			detail += fmt.Sprintf(" Terraform cannot create it instead: the service no longer makes plugin configs (%s).",
				client.Generation2Since)
		}
		diags.AddError(fmt.Sprintf("Cannot import %s %d: no such config", r.kind.Noun, id), detail)
	}
}

// restoreNote says how a deleted config of coll comes back: the service
// keeps it, and its deleted flag can be written.
func restoreNote(project string, coll client.Collection, id int64) string {
	return fmt.Sprintf(`The service keeps a deleted config: a PATCH of {"deleted": false} to `+
		`/api/projects/%s/%s/%d/, sent outside Terraform, brings it back, to be imported again.`,
		project, coll, id)
}

// SetIdentity stores the identity of the config c (framework.StoreIdentity).
func SetIdentity(ctx context.Context, identity *tfsdk.ResourceIdentity, c *RecordModel) diag.Diagnostics {
	return framework.StoreIdentity(ctx, identity, identityModel{ProjectID: c.ProjectID, ID: c.ID})
}

// storeRecord stores the answer to a create or update into the plan m, its
// plugin facts (prior's where it does not tell) and the identity.
func (r *configResource) storeRecord(ctx context.Context, rec *client.Record, m *Model, configured *RecordModel,
	prior pluginFacts, state *tfsdk.State, private privateState, identity *tfsdk.ResourceIdentity, diags *diag.Diagnostics,
) {
	r.checkDroppedFilters(m.Filters, rec, diags)
	facts := pluginFactsOf(rec, prior, makesNoConfigs(r.Meta().Client))
	facts.BlankName, facts.BlankDescription = isBlank(configured.Name), isBlank(configured.Description)
	planned := m.RecordModel
	m.fromRecord(rec, facts, true)
	if !diags.HasError() {
		// With an error Terraform stores what the service answered.
		keepPlanned(&m.RecordModel, &planned)
	}
	diags.Append(state.Set(ctx, m)...)
	diags.Append(writePrivate(ctx, private, pluginFactsKey, facts)...)
	diags.Append(SetIdentity(ctx, identity, &m.RecordModel)...)
}

// keepPlanned puts back every value the plan knew, as Terraform wants: the
// service may have changed one left out (an order, under -refresh=false).
func keepPlanned(got, planned *RecordModel) {
	g, p := reflect.ValueOf(got).Elem(), reflect.ValueOf(planned).Elem()
	for i := range g.NumField() {
		if v, ok := p.Field(i).Interface().(attr.Value); ok && !v.IsUnknown() {
			g.Field(i).Set(p.Field(i))
		}
	}
}

// showsCreated reports whether the collection shows a config just created.
func (r *configResource) showsCreated(ctx context.Context, c *client.Client, project string, rec *client.Record) (bool, error) {
	if shows, known := r.kind.Shows(rec); known {
		return shows, nil
	}
	_, err := c.Get(ctx, project, r.kind.Collection, rec.ID)
	if client.IsNotFound(err) {
		return false, nil
	}
	return err == nil, err
}

// refuseOtherKind deletes a config of another kind's plugin, naming its type.
func (r *configResource) refuseOtherKind(ctx context.Context, c *client.Client, project string, rec *client.Record, diags *diag.Diagnostics) {
	owner, err := r.removeStray(ctx, c, project, rec)

	var owners []string
	for _, k := range framework.Kinds() {
		shows, known := k.Shows(rec)
		if k.Name != r.kind.Name && (known && shows || !known && owner != nil && k.Name == owner.Name) {
			owners = append(owners, k.ConfigTypeName())
		}
	}
	detail := fmt.Sprintf("Plugin %d is not a %s plugin: the service stores its configs but does not show them "+
		"among the %ss of project %s.", rec.Plugin, r.kind.PluginNoun, r.kind.Noun, project)
	if len(owners) > 0 {
		detail += fmt.Sprintf(" Manage it with the %s resource instead.", strings.Join(owners, " or "))
	} else {
		detail += fmt.Sprintf(" Use a %s plugin, or the resource type of the plugin's kind.", r.kind.PluginNoun)
	}
	detail += deletedAgainNote(rec.ID, err, "Delete it on the service, or import it into the right resource type.")
	diags.AddAttributeError(pluginPath, fmt.Sprintf("Plugin %d is not a %s plugin", rec.Plugin, r.kind.PluginNoun), detail)
}

// removeStray soft-deletes a config through a collection that shows it (the
// others answer 404), and returns its kind; else DELETE at least disables it.
func (r *configResource) removeStray(ctx context.Context, c *client.Client, project string, rec *client.Record) (*framework.Kind, error) {
	var errs []error
	for _, k := range r.kind.OwnFirst()[1:] {
		if shows, known := k.Shows(rec); known && !shows {
			continue
		}
		err := softDelete(ctx, c, project, k.Collection, rec.ID)
		if err == nil {
			return &k, nil
		}
		if !client.IsNotFound(err) {
			errs = append(errs, err)
		}
	}
	if err := c.Delete(ctx, project, r.kind.Collection, rec.ID); err != nil {
		return nil, errors.Join(append(errs, err)...)
	}
	return nil, errors.Join(append(errs, fmt.Errorf("no collection shows config %d, so it could only be disabled", rec.ID))...)
}

// addError reports a failed operation on config id (0: not created yet).
func (r *configResource) addError(diags *diag.Diagnostics, op string, id int64, err error) {
	summary := fmt.Sprintf("Could not %s %s", op, r.kind.Noun)
	if id != 0 {
		summary += fmt.Sprintf(" %d", id)
	}
	framework.AddAPIError(diags, summary, err, attrPath)
}

// addCreateError reports a failed create, with what to use instead when the
// service made a hog function, or nothing.
func (r *configResource) addCreateError(diags *diag.Diagnostics, plugin int64, err error) {
	var unsaved *client.UnsavedError
	var lost *createonce.LostAnswerError
	var before *createonce.UnsavedBeforeError
	switch {
	case errors.As(err, &before):
		diags.AddError(fmt.Sprintf("The service no longer creates %ss", r.kind.Noun), before.Explain())
	case errors.As(err, &unsaved):
		diags.AddError(fmt.Sprintf("The service made a hog function instead of a %s", r.kind.Noun), fmt.Sprintf(
			"%s %s answered %d %s with a config that has no id: the service no longer stores plugin configs "+
				"(%s) and turned this request for plugin %s into a "+
				"hog function instead.\n\n"+
				"The request was not sent again, and nothing was saved in the state. Applying this configuration "+
				"again would make another hog function: remove this resource from the configuration, and manage the "+
				"hog function with the official PostHog provider (resource posthog_hog_function; the service lists "+
				"it among the project's hog functions, with its id to import). Configs that already exist can "+
				"still be managed here: see %s.",
			unsaved.Method, unsaved.Path, unsaved.Status, http.StatusText(unsaved.Status), client.Generation2Since, describePlugin(plugin, unsaved.Record),
			client.MovingGuide))
	case client.IsCreationDisabled(err):
		diags.AddError(fmt.Sprintf("The service no longer creates %ss", r.kind.Noun), fmt.Sprintf(
			"%s\n\nThe service no longer stores plugin configs (%s), and it cannot turn plugin %d into a hog "+
				"function, so nothing was made on the service and nothing was saved in the state. Remove this "+
				"resource from the configuration and build the pipeline as a hog function with the official "+
				"PostHog provider (resource posthog_hog_function). Configs that already exist can still be "+
				"managed here: see %s.",
			framework.DescribeError(err), client.Generation2Since, plugin, client.MovingGuide))
	case errors.As(err, &lost):
		diags.AddError(fmt.Sprintf("Could not create %s", r.kind.Noun), framework.DescribeError(lost.Err)+"\n\n"+lost.Note)
	default:
		r.addError(diags, "create", 0, err)
	}
}

// describePlugin names a plugin by id, and by its name in rec, if any.
func describePlugin(id int64, rec *client.Record) string {
	if rec != nil {
		if name := PluginOf(rec.PluginInfo).Name.Text; name != nil && *name != "" {
			return fmt.Sprintf("%d (%q)", id, *name)
		}
	}
	return fmt.Sprint(id)
}

// warnDeletedForGood says, after a delete that the service's answer shows
// it makes no configs any more, that Terraform cannot make the config again.
func (r *configResource) warnDeletedForGood(meta *framework.ProviderData, project string, id int64, diags *diag.Diagnostics) {
	if stores, known := meta.Client.StoresConfigs(); !known || stores {
		return
	}
	diags.AddWarning(fmt.Sprintf("Deleted %s cannot be made again", r.kind.Noun), fmt.Sprintf(
		"Terraform deleted %s %d of project %s. The service no longer makes plugin configs (%s), so Terraform "+
			"cannot make it again. %s", r.kind.Noun, id, project, client.Generation2Since,
		restoreNote(project, r.kind.Collection, id)))
}

// softDelete removes config id by PATCH {"deleted": true}: the service's
// DELETE only disables a config.
func softDelete(ctx context.Context, c *client.Client, project string, coll client.Collection, id int64) error {
	_, err := c.Update(ctx, project, coll, id, client.RecordInput{Deleted: client.Some(true)})
	return err
}

// deletedAgainNote tells whether config id was deleted again, else what to do.
func deletedAgainNote(id int64, err error, advice string) string {
	if err == nil {
		return fmt.Sprintf("\n\nThe config created on the way (id %d) has been deleted again.", id)
	}
	return fmt.Sprintf("\n\nThe config created on the way (id %d) could not be deleted again: %s\n%s",
		id, framework.DescribeError(err), advice)
}

// Where a call only needs to look it reads raw values: the framework's model
// conversion nearly doubles the CPU of a no-change refresh or plan (DESIGN.md).

// configured is what planning needs of a configuration.
type configured struct {
	RecordModel
	secret types.String
}

func configuredOf(raw tftypes.Value) configured {
	c, _ := configOf(raw)
	return c
}

// configOf reads a configuration, plan or state from its raw values, and
// whether that is all of it: each attribute known and of its type, and no
// timeouts block.
func configOf(raw tftypes.Value) (configured, bool) {
	a := framework.RawAttributes(raw)
	if a == nil {
		return configured{}, false
	}
	ok := a[timeoutsBlock].IsNull()
	str := func(name string) types.String {
		v := framework.RawString(a[name])
		ok = ok && !v.IsUnknown()
		return v
	}
	num := func(name string) types.Int64 {
		v := framework.RawInt64(a[name])
		ok = ok && !v.IsUnknown()
		return v
	}
	c := configured{RecordModel: RecordModel{
		ID: num("id"), ProjectID: str("project_id"), Plugin: num("plugin"), Order: num("order"),
		Name: str("name"), Description: str("description"),
		Filters:   FiltersValue{StringValue: str("filters")},
		Settings:  jsontypes.Normalized{StringValue: str("config")},
		CreatedAt: str("created_at"), UpdatedAt: str("updated_at"),
	}, secret: framework.RawString(a[settingsSecret])}
	var enabled bool
	switch v := a["enabled"]; {
	case v.IsNull():
		c.Enabled = types.BoolNull()
	case !v.IsKnown() || v.As(&enabled) != nil:
		ok = false
	default:
		c.Enabled = types.BoolValue(enabled)
	}
	return c, ok
}
