// Package order is the resource pipeline_KIND_order: the sequence of a
// collection's configs in one project; sequence.go decides what to write.
package order

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/listvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/identityschema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringdefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"
	"golang.org/x/sync/errgroup"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/framework"
)

var (
	_ resource.ResourceWithConfigure    = (*orderResource)(nil)
	_ resource.ResourceWithModifyPlan   = (*orderResource)(nil)
	_ resource.ResourceWithImportState  = (*orderResource)(nil)
	_ resource.ResourceWithIdentity     = (*orderResource)(nil)
	_ resource.ResourceWithUpgradeState = (*orderResource)(nil)
)

type orderResource struct {
	framework.ResourceBase
	kind framework.Kind
}

// New returns the constructor of the order resource of kind k.
func New(k framework.Kind) func() resource.Resource {
	return func() resource.Resource {
		return &orderResource{ResourceBase: framework.NewResourceBase(k.TypeSuffix("order")), kind: k}
	}
}

type model struct {
	ID          types.String   `tfsdk:"id"`
	ProjectID   types.String   `tfsdk:"project_id"`
	ConfigIDs   types.List     `tfsdk:"config_ids"`
	Unlisted    types.String   `tfsdk:"unlisted_configs"`
	UnlistedIDs types.List     `tfsdk:"unlisted_config_ids"`
	Orders      types.Map      `tfsdk:"orders"`
	Timeouts    timeouts.Value `tfsdk:"timeouts"`
}

type identityModel struct {
	ProjectID types.String `tfsdk:"project_id"`
}

// IdentitySchema implements resource.ResourceWithIdentity: one per project.
func (r *orderResource) IdentitySchema(_ context.Context, _ resource.IdentitySchemaRequest, resp *resource.IdentitySchemaResponse) {
	resp.IdentitySchema = identityschema.Schema{
		Attributes: map[string]identityschema.Attribute{
			"project_id": identityschema.StringAttribute{
				OptionalForImport: true,
				Description:       `Project whose configs are ordered: a project id or "@current". Defaults to the provider's project_id on import.`,
			},
		},
	}
}

// Schema implements resource.Resource.
func (r *orderResource) Schema(ctx context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	k := r.kind
	resp.Schema = schema.Schema{
		Version: 1,
		MarkdownDescription: fmt.Sprintf("Sets the order in which a project's %[1]ss run: `config_ids` "+
			"lists them, first runs first.\n\n"+
			"**Configs you do not list**, such as one added in the PostHog UI, never show as a change of "+
			"`config_ids`; `unlisted_config_ids` shows them. With `unlisted_configs = \"last\"`, the default, "+
			"they run after the listed configs: one that is not there yet shows in the next plan as its new "+
			"place in `orders`, and one apply moves it. With `unlisted_configs = \"keep\"` they stay where "+
			"they are and the plan stays empty.\n\n"+
			"**Leave `order` unset on `%[2]s` resources**: a config that sets `order` and this resource would "+
			"move it back and forth. Configuration that `terraform query` generates leaves it unset.",
			k.Noun, k.ConfigTypeName()),
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{
				Computed:            true,
				MarkdownDescription: "The project id: there is one order per collection and project.",
				PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"project_id": schema.StringAttribute{
				Optional: true,
				Computed: true,
				MarkdownDescription: "Project whose configs are ordered: a project id or `@current`. Defaults to " +
					"the provider's `project_id`. Another project replaces the resource; the same project written " +
					"the other way (`@current` for its id, or back) does not.",
				Validators:    []validator.String{framework.ProjectIDValidator()},
				PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"config_ids": schema.ListAttribute{
				ElementType: types.Int64Type,
				Required:    true,
				MarkdownDescription: fmt.Sprintf("Ids of the project's %ss, first runs first. Disabled "+
					"configs too, to keep their place.", k.Noun),
				Validators: []validator.List{
					listvalidator.UniqueValues(),
					listvalidator.ValueInt64sAre(int64validator.AtLeast(1)),
				},
			},
			"unlisted_configs": schema.StringAttribute{
				Optional: true,
				Computed: true,
				Default:  stringdefault.StaticString(unlistedLast),
				MarkdownDescription: fmt.Sprintf("What happens to the %ss `config_ids` leaves out: `last` "+
					"(the default) runs them after the listed ones, keeping their sequence among themselves; "+
					"`keep` leaves them where they are.", k.Noun),
				Validators: []validator.String{stringvalidator.OneOf(unlistedLast, unlistedKeep)},
			},
			"unlisted_config_ids": schema.ListAttribute{
				ElementType: types.Int64Type,
				Computed:    true,
				MarkdownDescription: fmt.Sprintf("The project's %ss that `config_ids` leaves out, in the order "+
					"they run.", k.Noun),
			},
			"orders": schema.MapAttribute{
				ElementType: types.Int64Type,
				Computed:    true,
				MarkdownDescription: "The `order` of each config of `config_ids` and `unlisted_config_ids`, by " +
					"config id.",
			},
		},
		Blocks: map[string]schema.Block{
			"timeouts": timeouts.Block(ctx, timeouts.Opts{Create: true, Read: true, Update: true}),
		},
	}
}

// UpgradeState implements resource.ResourceWithUpgradeState: version 0
// did "last" with unlisted configs, and listed every config it knew.
func (r *orderResource) UpgradeState(context.Context) map[int64]resource.StateUpgrader {
	return map[int64]resource.StateUpgrader{0: framework.JSONStateUpgrader("order", func(attrs map[string]json.RawMessage) {
		attrs["unlisted_configs"] = json.RawMessage(`"` + unlistedLast + `"`)
		attrs["unlisted_config_ids"] = json.RawMessage(`[]`)
	})}
}

// ModifyPlan implements resource.ResourceWithModifyPlan: the orders of the
// configs the last refresh saw are planned as apply will write them.
func (r *orderResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	framework.PlanProjectID(ctx, r.Meta(), framework.ProjectWitness{Collection: r.kind.Collection, IDAttribute: "config_ids"}, req, resp)
	if resp.Diagnostics.HasError() || req.Plan.Raw.IsNull() {
		return
	}
	var plan model
	resp.Diagnostics.Append(resp.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	plan.ID = plan.ProjectID
	plan.Orders, plan.UnlistedIDs = types.MapUnknown(types.Int64Type), types.ListUnknown(types.Int64Type)
	ids, known := listInt64s(plan.ConfigIDs)
	if !req.State.Raw.IsNull() && known && !plan.Unlisted.IsUnknown() {
		var state model
		resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
		current, currentKnown := mapOrders(state.Orders)
		if currentKnown && !resp.Diagnostics.HasError() && len(missingIDs(ids, current)) == 0 {
			want, unlisted := arrange(plan.Unlisted.ValueString(), ids, current)
			plan.Orders, plan.UnlistedIDs = ordersMap(want), int64List(unlisted)
		}
	}
	resp.Diagnostics.Append(resp.Plan.Set(ctx, &plan)...)
}

// Create applies the configured sequence.
func (r *orderResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	r.apply(ctx, req.Plan, false, &resp.State, resp.Identity, &resp.Diagnostics)
}

// Update applies the configured sequence.
func (r *orderResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	r.apply(ctx, req.Plan, true, &resp.State, resp.Identity, &resp.Diagnostics)
}

// apply brings the service to the planned sequence and keeps the orders (and
// the project, when the plan did not know it) it holds afterwards.
func (r *orderResource) apply(ctx context.Context, reqPlan tfsdk.Plan, update bool,
	state *tfsdk.State, identity *tfsdk.ResourceIdentity, diags *diag.Diagnostics,
) {
	var plan model
	diags.Append(reqPlan.Get(ctx, &plan)...)
	meta, project := r.MustProject(plan.ProjectID, diags)
	timeout := plan.Timeouts.Create
	if update {
		timeout = plan.Timeouts.Update
	}
	ctx, cancel := framework.OperationContext(ctx, timeout, framework.DefaultWriteTimeout, diags)
	defer cancel()
	if diags.HasError() {
		return
	}
	ids, _ := listInt64s(plan.ConfigIDs)
	planned, plannedKnown := mapOrders(plan.Orders)
	plannedUnlisted, unlistedKnown := listInt64s(plan.UnlistedIDs)
	plan.ProjectID, plan.ID = types.StringValue(project), types.StringValue(project)

	recs, err := meta.Client.ListAll(ctx, project, r.kind.Collection)
	if err != nil {
		framework.AddAPIError(diags, fmt.Sprintf("Could not list the %ss of project %s", r.kind.Noun, project), err, nil)
		return
	}
	current := activeOrders(recs)
	if missing := missingIDs(ids, current); len(missing) > 0 {
		diags.AddAttributeError(path.Root("config_ids"), "Unknown configs in config_ids", fmt.Sprintf(
			"Project %s has no %s with id %s: unknown, soft-deleted, or a config of another kind. "+
				"Remove them from config_ids.", project, r.kind.Noun, strings.Join(missing, ", ")))
		return
	}

	// A config that appeared since the plan stays as it is until the next.
	want, unlisted := planned, plannedUnlisted
	if !plannedKnown || !unlistedKnown {
		want, unlisted = arrange(plan.Unlisted.ValueString(), ids, current)
	}
	changes := map[int64]int64{}
	for id, o := range want {
		if cur, active := current[id]; active && cur != o {
			changes[id] = o
		}
	}
	// No list page fetched before these writes may serve the records' reads.
	defer func() {
		for id := range changes {
			meta.ReadCache().Invalidate(id)
		}
	}()
	if id, err := r.setOrders(ctx, meta.Client, project, changes, current); err != nil {
		set := len(changes) - len(changedOrders(changes, current))
		diags.AddError(fmt.Sprintf("Could not set the order of %s %d in project %s", r.kind.Noun, id, project),
			framework.DescribeError(err)+"\n\n"+progress(set, len(changes), update))
		if update { // the state says what the service holds now, so that even a plan without refresh shows the rest
			plan.observe(ids, current)
			diags.Append(state.Set(ctx, &plan)...)
		}
		return
	}
	plan.Orders, plan.UnlistedIDs = ordersMap(want), int64List(unlisted)
	diags.Append(state.Set(ctx, &plan)...)
	diags.Append(framework.StoreIdentity(ctx, identity, identityModel{ProjectID: plan.ProjectID})...)
}

// orderWriters is how many order PATCHes are under way at once: enough for
// the client's pace over a distant service (one at a time, 300 ms each, is
// 200 a minute: make bench-order), few enough to stop soon after a failure.
const orderWriters = 4

// setOrders writes orders (by config id), one PATCH of order per config,
// and notes in current each order the service answers. After a failure it
// starts no other PATCH, lets those under way finish and returns the config
// that failed. Never rearrange: until PostHog PR #25065 (2024-09-19) its
// keys are plugin ids, so a config id sent there reorders whichever config
// has a plugin of that id; it also refuses every key with scopes.
func (r *orderResource) setOrders(ctx context.Context, c *client.Client, project string, orders, current map[int64]int64) (int64, error) {
	if len(orders) == 0 {
		tflog.Debug(ctx, "the service already holds the sequence")
		return 0, nil
	}
	var (
		mu       sync.Mutex
		failedID int64
		failure  error
		writers  errgroup.Group
	)
	writers.SetLimit(orderWriters)
	for _, id := range slices.Sorted(maps.Keys(orders)) {
		mu.Lock()
		stop := failure != nil
		mu.Unlock()
		if stop {
			break
		}
		writers.Go(func() error {
			rec, err := c.Update(ctx, project, r.kind.Collection, id, client.RecordInput{Order: client.Some(orders[id])})
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err == nil:
				current[id] = rec.Order
			case failure == nil:
				failedID, failure = id, err
			}
			return nil
		})
	}
	_ = writers.Wait() // every failure is in failure
	if failure == nil {
		tflog.Debug(ctx, "orders set", map[string]any{"configs": len(orders)})
	}
	return failedID, failure
}

// progress says how far a failed apply got, what the state holds, what to do.
func progress(done, total int, update bool) string {
	s := fmt.Sprintf("%d of the %d orders this apply writes were set before the failure", done, total)
	if !update {
		return s + "; the order resource was not created, so the next plan creates it again and apply sets " +
			"the orders still out of place. Run apply again once the service answers."
	}
	return s + ", and the state holds the orders the service has now: the next plan shows those still to set. " +
		"Run apply again once the service answers."
}

// Read lists the collection and reports the sequence the service holds.
func (r *orderResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var state model
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	meta := r.MustMeta(&resp.Diagnostics)
	resp.Diagnostics.Append(framework.StoreIdentity(ctx, resp.Identity, identityModel{ProjectID: state.ProjectID})...)
	ctx, cancel := framework.OperationContext(ctx, state.Timeouts.Read, framework.DefaultReadTimeout, &resp.Diagnostics)
	defer cancel()
	if resp.Diagnostics.HasError() {
		return
	}

	project := state.ProjectID.ValueString()
	recs, err := meta.Client.ListAll(ctx, project, r.kind.Collection)
	if err != nil {
		framework.AddAPIError(&resp.Diagnostics, fmt.Sprintf("Could not list the %ss of project %s", r.kind.Noun, project), err, nil)
		return
	}
	previous, _ := listInt64s(state.ConfigIDs)
	current := activeOrders(recs)
	state.ID = state.ProjectID
	state.observe(previous, current)
	resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
}

// Delete changes nothing on the service: the configs keep their orders.
func (r *orderResource) Delete(ctx context.Context, _ resource.DeleteRequest, _ *resource.DeleteResponse) {
	tflog.Info(ctx, "removing the "+r.kind.Name+" order from state; the configs keep their orders")
}

// ImportState implements resource.ResourceWithImportState: the import ID,
// or the identity (Terraform 1.12+), names the project; Read fills the rest.
func (r *orderResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	project := req.ID
	if project == "" && req.Identity != nil {
		var ident identityModel
		resp.Diagnostics.Append(req.Identity.Get(ctx, &ident)...)
		if resp.Diagnostics.HasError() {
			return
		}
		if project = framework.ImportProject(ident.ProjectID, r.Meta(), &resp.Diagnostics); resp.Diagnostics.HasError() {
			return
		}
	} else if !framework.ValidProjectID(project) {
		resp.Diagnostics.AddError("Invalid import ID", fmt.Sprintf(
			`The import ID of the order resource is the project id (e.g. 1) or "@current", got %q.`, req.ID))
		return
	}
	id := types.StringValue(project)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), id)...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, framework.ProjectIDPath, id)...)
	// The default: a configuration that says otherwise plans the change.
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("unlisted_configs"), types.StringValue(unlistedLast))...)
	resp.Diagnostics.Append(framework.SetImportedIdentity(ctx, resp.Identity, identityModel{ProjectID: id})...)
}
