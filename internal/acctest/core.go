package acctest

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// Core drives one resource type of a provider as Terraform's core does,
// for generated scenarios at the protocol level: it validates, refreshes,
// plans and applies, and checks the provider's answers by the rules core
// enforces (a planned value for a configured attribute is the configured
// or the prior one; an applied value is the planned one wherever that was
// known; an identity never changes). A rule broken is an error of the
// call, as Terraform would fail the run.
type Core struct {
	Server   *ProviderServer
	TypeName string
	schema   *tfprotov6.Schema
	typ      tftypes.Object
}

// NewCore returns a Core of typeName on srv. Terraform starts a provider
// for each walk (plan, apply); a caller does too by making a Core per walk.
func NewCore(srv *ProviderServer, typeName string) (*Core, error) {
	schema, ok := srv.Schemas.ResourceSchemas[typeName]
	if !ok {
		return nil, fmt.Errorf("no resource type %s", typeName)
	}
	typ, ok := schema.ValueType().(tftypes.Object)
	if !ok {
		return nil, fmt.Errorf("%s: not an object type", typeName)
	}
	return &Core{Server: srv, TypeName: typeName, schema: schema, typ: typ}, nil
}

// Instance is a resource instance as Terraform keeps it: state (nil: none),
// private state and identity.
type Instance struct {
	State    tftypes.Value
	Private  []byte
	Identity *tfprotov6.ResourceIdentityData
}

// Exists reports whether the instance has a state.
func (i Instance) Exists() bool { return i.State.Type() != nil && !i.State.IsNull() }

// Attrs returns the state's attributes (nil when there is none).
func (i Instance) Attrs() map[string]tftypes.Value {
	if !i.Exists() {
		return nil
	}
	out := map[string]tftypes.Value{}
	if err := i.State.As(&out); err != nil {
		return nil
	}
	return out
}

// Plan is a planned change of one instance.
type Plan struct {
	Prior    Instance
	Config   tftypes.Value
	Planned  tftypes.Value
	Private  []byte
	Identity *tfprotov6.ResourceIdentityData
	// RequiresReplace lists the attributes whose change replaces the
	// instance.
	RequiresReplace []*tftypes.AttributePath
	Diagnostics     []*tfprotov6.Diagnostic
}

// Action is what the plan does: "noop", "create", "update", "replace" or
// "delete".
func (p *Plan) Action() string {
	switch {
	case !p.Prior.Exists() && p.Planned.IsNull():
		return "noop"
	case !p.Prior.Exists():
		return "create"
	case p.Planned.IsNull():
		return "delete"
	case len(p.RequiresReplace) > 0 && !p.Planned.Equal(p.Prior.State):
		return "replace"
	case p.Planned.Equal(p.Prior.State):
		return "noop"
	}
	return "update"
}

// Config builds a configuration value of the resource type: the given
// attributes, every other attribute and block null.
func (c *Core) Config(values map[string]tftypes.Value) (tftypes.Value, error) {
	attrs := map[string]tftypes.Value{}
	for name, at := range c.typ.AttributeTypes {
		if v, ok := values[name]; ok {
			attrs[name] = v
		} else {
			attrs[name] = tftypes.NewValue(at, nil)
		}
	}
	for name := range values {
		if _, ok := c.typ.AttributeTypes[name]; !ok {
			return tftypes.Value{}, fmt.Errorf("%s has no attribute %s", c.TypeName, name)
		}
	}
	return tftypes.NewValue(c.typ, attrs), nil
}

func (c *Core) dynamic(v tftypes.Value) (*tfprotov6.DynamicValue, error) {
	if v.Type() == nil {
		v = tftypes.NewValue(c.typ, nil)
	}
	dv, err := tfprotov6.NewDynamicValue(c.typ, v)
	return &dv, err
}

func (c *Core) value(dv *tfprotov6.DynamicValue) (tftypes.Value, error) {
	if dv == nil {
		return tftypes.NewValue(c.typ, nil), nil
	}
	return dv.Unmarshal(c.typ)
}

// Refresh reads the instance as a plan's refresh does; an instance the
// provider finds gone comes back without a state.
func (c *Core) Refresh(ctx context.Context, in Instance) (Instance, []*tfprotov6.Diagnostic, error) {
	if !in.Exists() {
		return in, nil, nil
	}
	state, err := c.dynamic(in.State)
	if err != nil {
		return in, nil, err
	}
	resp, err := c.Server.ReadResource(ctx, &tfprotov6.ReadResourceRequest{
		TypeName: c.TypeName, CurrentState: state, Private: in.Private, CurrentIdentity: in.Identity,
	})
	if err != nil {
		return in, nil, err
	}
	if HasError(resp.Diagnostics) {
		return in, resp.Diagnostics, nil
	}
	out, err := c.value(resp.NewState)
	if err != nil {
		return in, resp.Diagnostics, err
	}
	if err := checkIdentityKept(in.Identity, resp.NewIdentity); err != nil && !out.IsNull() {
		return in, resp.Diagnostics, fmt.Errorf("read: %w", err)
	}
	if err := checkWhollyKnown(out, "read"); err != nil {
		return in, resp.Diagnostics, err
	}
	next := Instance{State: out, Private: resp.Private, Identity: resp.NewIdentity}
	if next.Identity == nil {
		next.Identity = in.Identity
	}
	return next, resp.Diagnostics, nil
}

// Validate validates config, as Terraform does for every resource of the
// configuration, targeted by the plan or not.
func (c *Core) Validate(ctx context.Context, config tftypes.Value) ([]*tfprotov6.Diagnostic, error) {
	cfg, err := c.dynamic(config)
	if err != nil {
		return nil, err
	}
	v, err := c.Server.ValidateResourceConfig(ctx, &tfprotov6.ValidateResourceConfigRequest{
		TypeName: c.TypeName, Config: cfg,
		// Terraform 1.11 and later, which the resource's write-only
		// secrets need.
		ClientCapabilities: &tfprotov6.ValidateResourceConfigClientCapabilities{WriteOnlyAttributesAllowed: true},
	})
	if err != nil {
		return nil, err
	}
	return v.Diagnostics, nil
}

// Plan validates config (null: the resource is gone from the
// configuration) and plans the change from prior. Diagnostics with an
// error end the plan; a broken rule of core is the error.
func (c *Core) Plan(ctx context.Context, prior Instance, config tftypes.Value) (*Plan, error) {
	p := &Plan{Prior: prior, Config: config}
	if config.Type() == nil {
		config = tftypes.NewValue(c.typ, nil)
		p.Config = config
	}
	cfg, err := c.dynamic(config)
	if err != nil {
		return nil, err
	}
	if !config.IsNull() {
		diags, err := c.Validate(ctx, config)
		if err != nil {
			return nil, err
		}
		p.Diagnostics = append(p.Diagnostics, diags...)
		if HasError(p.Diagnostics) {
			return p, nil
		}
	}
	priorState := prior.State
	if !prior.Exists() {
		priorState = tftypes.NewValue(c.typ, nil)
	}
	proposed, err := c.proposedNew(priorState, config)
	if err != nil {
		return nil, err
	}
	priorDV, err := c.dynamic(priorState)
	if err != nil {
		return nil, err
	}
	proposedDV, err := c.dynamic(proposed)
	if err != nil {
		return nil, err
	}
	resp, err := c.Server.PlanResourceChange(ctx, &tfprotov6.PlanResourceChangeRequest{
		TypeName: c.TypeName, PriorState: priorDV, ProposedNewState: proposedDV, Config: cfg,
		PriorPrivate: prior.Private, PriorIdentity: prior.Identity,
	})
	if err != nil {
		return nil, err
	}
	p.Diagnostics = append(p.Diagnostics, resp.Diagnostics...)
	if HasError(p.Diagnostics) {
		return p, nil
	}
	if p.Planned, err = c.value(resp.PlannedState); err != nil {
		return nil, err
	}
	p.Private, p.Identity, p.RequiresReplace = resp.PlannedPrivate, resp.PlannedIdentity, resp.RequiresReplace
	if config.IsNull() {
		return p, nil
	}
	if err := c.checkPlanValid(priorState, config, p.Planned); err != nil {
		return nil, err
	}
	if prior.Exists() && len(p.RequiresReplace) == 0 {
		if err := checkIdentityKept(prior.Identity, p.Identity); err != nil {
			return nil, fmt.Errorf("plan: %w", err)
		}
	}
	return p, nil
}

// Apply applies a plan that Plan made, as Terraform's apply walk does: a
// create or update is planned again first (the provider of the apply walk
// may know more than the plan's did), and that final plan must keep every
// value the first one knew; a replacement destroys and then creates, as
// Terraform does by default. It returns the new instance, which keeps the
// prior one where the apply failed before changing it.
func (c *Core) Apply(ctx context.Context, p *Plan) (Instance, []*tfprotov6.Diagnostic, error) {
	switch p.Action() {
	case "noop":
		return p.Prior, nil, nil
	case "create", "update":
		final, err := c.Plan(ctx, p.Prior, p.Config)
		if err != nil {
			return p.Prior, nil, err
		}
		if HasError(final.Diagnostics) {
			return p.Prior, final.Diagnostics, nil
		}
		if err := checkFinalPlan(p.Planned, final.Planned); err != nil {
			return p.Prior, final.Diagnostics, fmt.Errorf("%s: %w", c.TypeName, err)
		}
		next, diags, err := c.apply(ctx, p.Prior, final.Planned, final.Config, final.Private, final.Identity)
		return next, append(final.Diagnostics, diags...), err
	case "replace":
		gone, diags, err := c.apply(ctx, p.Prior, tftypes.NewValue(c.typ, nil), tftypes.NewValue(c.typ, nil), nil, nil)
		if err != nil || HasError(diags) {
			return gone, diags, err
		}
		create, err := c.Plan(ctx, Instance{}, p.Config)
		if err != nil || HasError(create.Diagnostics) {
			if create != nil {
				diags = append(diags, create.Diagnostics...)
			}
			return Instance{}, diags, err
		}
		next, more, err := c.apply(ctx, Instance{}, create.Planned, create.Config, create.Private, create.Identity)
		return next, append(diags, more...), err
	}
	return c.apply(ctx, p.Prior, p.Planned, p.Config, p.Private, p.Identity)
}

func (c *Core) apply(ctx context.Context, prior Instance, planned, config tftypes.Value, private []byte,
	identity *tfprotov6.ResourceIdentityData,
) (Instance, []*tfprotov6.Diagnostic, error) {
	priorState := prior.State
	if !prior.Exists() {
		priorState = tftypes.NewValue(c.typ, nil)
	}
	priorDV, err := c.dynamic(priorState)
	if err != nil {
		return prior, nil, err
	}
	plannedDV, err := c.dynamic(planned)
	if err != nil {
		return prior, nil, err
	}
	cfgDV, err := c.dynamic(config)
	if err != nil {
		return prior, nil, err
	}
	resp, err := c.Server.ApplyResourceChange(ctx, &tfprotov6.ApplyResourceChangeRequest{
		TypeName: c.TypeName, PriorState: priorDV, PlannedState: plannedDV, Config: cfgDV,
		PlannedPrivate: private, PlannedIdentity: identity,
	})
	if err != nil {
		return prior, nil, err
	}
	out, err := c.value(resp.NewState)
	if err != nil {
		return prior, resp.Diagnostics, err
	}
	next := Instance{State: out, Private: resp.Private, Identity: resp.NewIdentity}
	if out.IsNull() {
		next = Instance{}
	}
	if HasError(resp.Diagnostics) {
		// Terraform keeps what the provider answered beside its errors (a
		// failed create with no state leaves none).
		return next, resp.Diagnostics, nil
	}
	if !planned.IsNull() {
		if err := c.checkApplyConsistent(planned, out); err != nil {
			return next, resp.Diagnostics, err
		}
		if err := checkIdentityKept(prior.Identity, resp.NewIdentity); err != nil && prior.Exists() {
			return next, resp.Diagnostics, fmt.Errorf("apply: %w", err)
		}
	}
	return next, resp.Diagnostics, nil
}

// ImportByID imports the instance with id, then reads it, as an import
// block does.
func (c *Core) ImportByID(ctx context.Context, id string) (Instance, []*tfprotov6.Diagnostic, error) {
	return c.importResource(ctx, &tfprotov6.ImportResourceStateRequest{TypeName: c.TypeName, ID: id})
}

// ImportByIdentity imports the instance with identity (attribute values of
// the identity schema), then reads it.
func (c *Core) ImportByIdentity(ctx context.Context, identity map[string]tftypes.Value) (Instance, []*tfprotov6.Diagnostic, error) {
	schemas, err := c.Server.GetResourceIdentitySchemas(ctx, &tfprotov6.GetResourceIdentitySchemasRequest{})
	if err != nil {
		return Instance{}, nil, err
	}
	schema, ok := schemas.IdentitySchemas[c.TypeName]
	if !ok {
		return Instance{}, nil, fmt.Errorf("%s has no identity", c.TypeName)
	}
	typ := schema.ValueType()
	obj, ok := typ.(tftypes.Object)
	if !ok {
		return Instance{}, nil, fmt.Errorf("%s: identity not an object", c.TypeName)
	}
	attrs := map[string]tftypes.Value{}
	for name, at := range obj.AttributeTypes {
		if v, ok := identity[name]; ok {
			attrs[name] = v
		} else {
			attrs[name] = tftypes.NewValue(at, nil)
		}
	}
	dv, err := tfprotov6.NewDynamicValue(typ, tftypes.NewValue(typ, attrs))
	if err != nil {
		return Instance{}, nil, err
	}
	return c.importResource(ctx, &tfprotov6.ImportResourceStateRequest{
		TypeName: c.TypeName, Identity: &tfprotov6.ResourceIdentityData{IdentityData: &dv},
	})
}

func (c *Core) importResource(ctx context.Context, req *tfprotov6.ImportResourceStateRequest) (Instance, []*tfprotov6.Diagnostic, error) {
	resp, err := c.Server.ImportResourceState(ctx, req)
	if err != nil {
		return Instance{}, nil, err
	}
	if HasError(resp.Diagnostics) {
		return Instance{}, resp.Diagnostics, nil
	}
	if len(resp.ImportedResources) != 1 {
		return Instance{}, resp.Diagnostics, fmt.Errorf("import answered %d resources, want 1", len(resp.ImportedResources))
	}
	imp := resp.ImportedResources[0]
	state, err := c.value(imp.State)
	if err != nil {
		return Instance{}, resp.Diagnostics, err
	}
	in := Instance{State: state, Private: imp.Private, Identity: imp.Identity}
	read, diags, err := c.Refresh(ctx, in)
	diags = append(resp.Diagnostics, diags...)
	if err == nil && !HasError(diags) && !read.Exists() {
		err = fmt.Errorf("imported %s not found by its read", c.TypeName)
	}
	return read, diags, err
}

// proposedNew is core's proposed new state: the configuration, with the
// prior values of computed attributes it leaves null (objchange.ProposedNew
// for an object of primitive attributes and single nested blocks).
func (c *Core) proposedNew(prior, config tftypes.Value) (tftypes.Value, error) {
	if config.IsNull() {
		return config, nil
	}
	cfg := map[string]tftypes.Value{}
	if err := config.As(&cfg); err != nil {
		return tftypes.Value{}, err
	}
	var priorAttrs map[string]tftypes.Value
	if !prior.IsNull() {
		if err := prior.As(&priorAttrs); err != nil {
			return tftypes.Value{}, err
		}
	}
	out := map[string]tftypes.Value{}
	for name, v := range cfg {
		out[name] = v
		if a := c.attribute(name); a != nil && a.Computed && v.IsNull() && priorAttrs != nil {
			out[name] = priorAttrs[name]
		}
	}
	return tftypes.NewValue(c.typ, out), nil
}

func (c *Core) attribute(name string) *tfprotov6.SchemaAttribute {
	for _, a := range c.schema.Block.Attributes {
		if a.Name == name {
			return a
		}
	}
	return nil
}

// checkPlanValid applies core's rules for a planned value of each
// attribute (plans/objchange.AssertPlanValid): a computed attribute left
// out of the configuration may be planned as anything; one configured must
// be planned as configured, or as its prior value; one neither computed
// nor configured must be planned null; a write-only one is always null.
func (c *Core) checkPlanValid(prior, config, planned tftypes.Value) error {
	var priorAttrs, cfg, plan map[string]tftypes.Value
	if !prior.IsNull() {
		if err := prior.As(&priorAttrs); err != nil {
			return err
		}
	}
	if err := config.As(&cfg); err != nil {
		return err
	}
	if err := planned.As(&plan); err != nil {
		return err
	}
	var problems []string
	for _, a := range c.schema.Block.Attributes {
		cv, pv := cfg[a.Name], plan[a.Name]
		switch {
		case a.WriteOnly:
			if !pv.IsNull() {
				problems = append(problems, a.Name+": a write-only attribute planned non-null")
			}
		case a.Computed && !a.Optional, a.Computed && cv.IsNull():
		case cv.IsNull():
			if !pv.IsNull() {
				problems = append(problems, fmt.Sprintf("%s: planned %s for a non-computed attribute left out", a.Name, pv))
			}
		case !cv.IsKnown():
		case pv.Equal(cv):
		case priorAttrs != nil && !priorAttrs[a.Name].IsNull() && pv.Equal(priorAttrs[a.Name]):
		default:
			problems = append(problems, fmt.Sprintf("%s: planned %s, which is neither the configured %s nor the prior value", a.Name, pv, cv))
		}
	}
	if len(problems) > 0 {
		return fmt.Errorf("provider produced an invalid plan for %s: %s", c.TypeName, strings.Join(problems, "; "))
	}
	return nil
}

// checkApplyConsistent is core's check of an applied state against its
// plan (objchange.AssertObjectCompatible): every attribute planned known is
// applied as planned, every one planned unknown is applied known.
func (c *Core) checkApplyConsistent(planned, applied tftypes.Value) error {
	if applied.IsNull() {
		return fmt.Errorf("provider produced an inconsistent result after apply for %s: the object was removed", c.TypeName)
	}
	var plan, got map[string]tftypes.Value
	if err := planned.As(&plan); err != nil {
		return err
	}
	if err := applied.As(&got); err != nil {
		return err
	}
	var problems []string
	for name, pv := range plan {
		gv := got[name]
		switch {
		case !pv.IsFullyKnown():
			if !gv.IsFullyKnown() {
				problems = append(problems, name+": still unknown after apply")
			}
		case !pv.Equal(gv):
			problems = append(problems, fmt.Sprintf("%s: was %s, but now %s", name, pv, gv))
		}
	}
	if len(problems) > 0 {
		return fmt.Errorf("provider produced an inconsistent result after apply for %s: %s", c.TypeName, strings.Join(problems, "; "))
	}
	return nil
}

// checkFinalPlan is core's check of the apply walk's plan against the plan
// walk's (objchange.AssertObjectCompatible): a value known then is the same
// now.
func checkFinalPlan(planned, final tftypes.Value) error {
	var plan, got map[string]tftypes.Value
	if err := planned.As(&plan); err != nil {
		return err
	}
	if err := final.As(&got); err != nil {
		return err
	}
	var problems []string
	for name, pv := range plan {
		if pv.IsFullyKnown() && !pv.Equal(got[name]) {
			problems = append(problems, fmt.Sprintf("%s: planned %s, now %s", name, pv, got[name]))
		}
	}
	if len(problems) > 0 {
		return fmt.Errorf("provider produced inconsistent final plan: %s", strings.Join(problems, "; "))
	}
	return nil
}

func checkWhollyKnown(v tftypes.Value, call string) error {
	if !v.IsFullyKnown() {
		return fmt.Errorf("%s answered unknown values: %s", call, v)
	}
	return nil
}

// checkIdentityKept is core's rule that an identity, once set, never
// changes (Terraform 1.12+).
func checkIdentityKept(prior, next *tfprotov6.ResourceIdentityData) error {
	if prior == nil || prior.IdentityData == nil || next == nil || next.IdentityData == nil {
		return nil
	}
	if string(prior.IdentityData.JSON) != string(next.IdentityData.JSON) ||
		string(prior.IdentityData.MsgPack) != string(next.IdentityData.MsgPack) {
		return fmt.Errorf("the identity changed from %v to %v", prior.IdentityData, next.IdentityData)
	}
	return nil
}

// HasError reports whether diags hold an error.
func HasError(diags []*tfprotov6.Diagnostic) bool {
	for _, d := range diags {
		if d.Severity == tfprotov6.DiagnosticSeverityError {
			return true
		}
	}
	return false
}

// DiagnosticsText renders diagnostics for a failure message.
func DiagnosticsText(diags []*tfprotov6.Diagnostic) string {
	var b strings.Builder
	for _, d := range diags {
		at := ""
		if d.Attribute != nil {
			at = " [" + d.Attribute.String() + "]"
		}
		fmt.Fprintf(&b, "\n  %s: %s%s: %s", d.Severity, d.Summary, at, d.Detail)
	}
	return b.String()
}
