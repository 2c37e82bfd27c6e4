package main

import (
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/framework"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/provider"
)

// The server advertises GenerateResourceConfig, so that Terraform 1.14+
// asks it, and a config's generated configuration leaves order to the
// service while keeping the other arguments of its state.
func TestGenerateResourceConfig_configLeavesOrderOut(t *testing.T) {
	ctx := context.Background()
	s := releaseRequestContexts(providerserver.NewProtocol6(provider.New("test")())())
	schemas, err := s.GetProviderSchema(ctx, &tfprotov6.GetProviderSchemaRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if c := schemas.ServerCapabilities; c == nil || !c.GenerateResourceConfig || !c.PlanDestroy {
		t.Fatalf("capabilities %+v: want GenerateResourceConfig besides the framework's", c)
	}
	meta, err := s.GetMetadata(ctx, &tfprotov6.GetMetadataRequest{})
	if err != nil || meta.ServerCapabilities == nil || !meta.ServerCapabilities.GenerateResourceConfig {
		t.Fatalf("GetMetadata (%v) does not advertise GenerateResourceConfig: %+v", err, meta)
	}
	for _, k := range framework.Kinds() {
		typ := schemas.ResourceSchemas[k.ConfigTypeName()].ValueType()
		obj, ok := typ.(tftypes.Object)
		if !ok {
			t.Fatalf("%s: the schema's type is %v, want an object", k.ConfigTypeName(), typ)
		}
		attrs := map[string]tftypes.Value{}
		for name, at := range obj.AttributeTypes {
			attrs[name] = tftypes.NewValue(at, nil)
		}
		attrs["id"] = tftypes.NewValue(tftypes.Number, 42)
		attrs["plugin"] = tftypes.NewValue(tftypes.Number, 1)
		attrs["order"] = tftypes.NewValue(tftypes.Number, 3)
		attrs["project_id"] = tftypes.NewValue(tftypes.String, "1")
		state, err := tfprotov6.NewDynamicValue(typ, tftypes.NewValue(typ, attrs))
		if err != nil {
			t.Fatal(err)
		}
		resp, err := s.GenerateResourceConfig(ctx, &tfprotov6.GenerateResourceConfigRequest{TypeName: k.ConfigTypeName(), State: &state})
		if err != nil || len(resp.Diagnostics) != 0 {
			t.Fatalf("%s: %v %+v", k.ConfigTypeName(), err, resp)
		}
		v, err := resp.Config.Unmarshal(typ)
		if err != nil {
			t.Fatal(err)
		}
		var got map[string]tftypes.Value
		if err := v.As(&got); err != nil {
			t.Fatal(err)
		}
		if !got["order"].IsNull() || !got["id"].IsNull() || !got["plugin"].Equal(attrs["plugin"]) ||
			!got["project_id"].Equal(attrs["project_id"]) {
			t.Errorf("%s: generated %v, want order and id left out, plugin and project_id kept", k.ConfigTypeName(), got)
		}
	}
}
