package framework

import (
	"context"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

func TestOperationContext(t *testing.T) {
	t.Parallel()
	const hour = time.Hour
	t.Run("configured limit", func(t *testing.T) {
		t.Parallel()
		var diags diag.Diagnostics
		var gotDefault time.Duration
		limit := func(_ context.Context, def time.Duration) (time.Duration, diag.Diagnostics) {
			gotDefault = def
			return 2 * hour, nil
		}
		before := time.Now()
		ctx, cancel := OperationContext(context.Background(), limit, hour, &diags)
		if diags.HasError() {
			t.Fatalf("unexpected diagnostics: %v", diags)
		}
		if gotDefault != hour {
			t.Errorf("the getter got default %v, want %v", gotDefault, hour)
		}
		deadline, ok := ctx.Deadline()
		if !ok || deadline.Before(before.Add(2*hour)) || deadline.After(time.Now().Add(2*hour)) {
			t.Errorf("deadline %v (set: %v), want 2h from the call", deadline, ok)
		}
		cancel()
		if ctx.Err() == nil {
			t.Error("cancel did not end the context")
		}
	})
	t.Run("unreadable limit", func(t *testing.T) {
		t.Parallel()
		var diags diag.Diagnostics
		limit := func(_ context.Context, def time.Duration) (time.Duration, diag.Diagnostics) {
			return def, diag.Diagnostics{diag.NewErrorDiagnostic("Timeout Cannot Be Parsed", "bad")}
		}
		_, cancel := OperationContext(context.Background(), limit, hour, &diags)
		defer cancel()
		if !diags.HasError() || diags[0].Summary() != "Timeout Cannot Be Parsed" {
			t.Errorf("diagnostics %v, want the getter's error", diags)
		}
	})
}

func TestMustProject(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		meta        *ProviderData
		configured  types.String
		wantProject string
		wantError   string // summary; "" for none
	}{
		"not configured":    {configured: types.StringValue("1"), wantError: "Provider not configured"},
		"configured":        {meta: &ProviderData{ProjectID: "1"}, configured: types.StringValue("2"), wantProject: "2"},
		"provider default":  {meta: &ProviderData{ProjectID: "1"}, configured: types.StringNull(), wantProject: "1"},
		"no project at all": {meta: &ProviderData{}, configured: types.StringNull(), wantError: "Missing project_id"},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			var diags diag.Diagnostics
			w := &base{meta: tt.meta}
			meta, project := w.MustProject(tt.configured, &diags)
			if meta != tt.meta || project != tt.wantProject {
				t.Errorf("got (%v, %q), want (%v, %q)", meta, project, tt.meta, tt.wantProject)
			}
			switch {
			case tt.wantError == "" && diags.HasError():
				t.Errorf("unexpected diagnostics: %v", diags)
			case tt.wantError != "" && (len(diags) != 1 || diags[0].Summary() != tt.wantError):
				t.Errorf("diagnostics %v, want one error %q", diags, tt.wantError)
			}
		})
	}
}
