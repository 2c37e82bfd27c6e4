package acctest

import (
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
)

// EmptyPlanAfterApply asserts that, after an apply, a refresh and plan show
// nothing to do (terraform-plugin-testing checks it too; this says it).
func EmptyPlanAfterApply(preApply ...plancheck.PlanCheck) resource.ConfigPlanChecks {
	return resource.ConfigPlanChecks{
		PreApply:             preApply,
		PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
	}
}
