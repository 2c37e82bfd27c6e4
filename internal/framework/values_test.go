package framework

import (
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// TestProjectResolution: one resolution and one error for a configured
// project, the provider's, and neither; an import identity's project is
// also checked for its form.
func TestProjectResolution(t *testing.T) {
	t.Parallel()
	withDefault := &ProviderData{ProjectID: "7"}
	for _, tc := range []struct {
		name       string
		configured types.String
		meta       *ProviderData
		want       string
		wantError  string
	}{
		{"configured", types.StringValue("2"), withDefault, "2", ""},
		{"the provider's", types.StringNull(), withDefault, "7", ""},
		{"not known yet: the provider's", types.StringUnknown(), withDefault, "7", ""},
		{"neither", types.StringNull(), &ProviderData{}, "", "Missing project_id"},
		{"not configured provider", types.StringNull(), nil, "", "Missing project_id"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			for name, resolve := range map[string]func(types.String, *ProviderData, *diag.Diagnostics) string{
				"ProjectOrDefault": ProjectOrDefault, "ImportProject": ImportProject,
			} {
				var diags diag.Diagnostics
				got := resolve(tc.configured, tc.meta, &diags)
				if got != tc.want {
					t.Errorf("%s = %q, want %q", name, got, tc.want)
				}
				switch {
				case tc.wantError == "" && diags.HasError():
					t.Errorf("%s: unexpected diagnostics %v", name, diags)
				case tc.wantError != "" && (len(diags) != 1 || diags[0].Summary() != tc.wantError):
					t.Errorf("%s: diagnostics %v, want one %q", name, diags, tc.wantError)
				}
			}
		})
	}
	var diags diag.Diagnostics
	if ImportProject(types.StringValue("my-project"), withDefault, &diags); len(diags) != 1 || diags[0].Summary() != "Invalid project_id" {
		t.Errorf("a malformed identity project: diagnostics %v, want Invalid project_id", diags)
	}
}

func TestJSONObjectValidator(t *testing.T) {
	t.Parallel()
	v := JSONObjectValidator("Invalid thing", `jsonencode({ a = 1 })`)
	for value, wantError := range map[string]bool{`{"a":1}`: false, `{}`: false, `[1]`: true, `null`: true, `"x"`: true, `{`: true} {
		resp := validator.StringResponse{}
		v.ValidateString(context.Background(), validator.StringRequest{
			Path: path.Root("payload"), ConfigValue: types.StringValue(value),
		}, &resp)
		if got := resp.Diagnostics.HasError(); got != wantError {
			t.Errorf("%s: error %v, want %v", value, got, wantError)
			continue
		}
		if wantError {
			d := resp.Diagnostics[0]
			if d.Summary() != "Invalid thing" || d.Detail() != "payload must be a JSON object string (write it with jsonencode), e.g. jsonencode({ a = 1 })." {
				t.Errorf("%s: %q: %q", value, d.Summary(), d.Detail())
			}
		}
	}
	resp := validator.StringResponse{}
	v.ValidateString(context.Background(), validator.StringRequest{ConfigValue: types.StringUnknown()}, &resp)
	if resp.Diagnostics.HasError() {
		t.Error("an unknown value is refused")
	}
}
