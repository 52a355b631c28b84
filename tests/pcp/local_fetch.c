// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * local_fetch DSO COMMAND - two fetches of csf.thread.time.running from the
 * agent's DSO in a local context (pmSpecLocalPMDA(3)), the first result
 * kept while COMMAND runs (tests/pcp/run.sh: it changes the fake root) and
 * the second is taken, as pmval -L and pmrep do to compute rates.  Then
 * both results, read only now: "a TID VALUE" for each value of the first,
 * "b TID VALUE" of the second.
 */
#include <stdio.h>
#include <stdlib.h>

#include <pcp/pmapi.h>

#include "domain.h"

static void print(const char *tag, const pmResult *r)
{
	const pmValueSet *vs = r->vset[0];

	if (vs->numval < 0)
		printf("%s error %s\n", tag, pmErrStr(vs->numval));
	for (int i = 0; i < vs->numval; i++) {
		pmAtomValue a;

		if (pmExtractValue(vs->valfmt, &vs->vlist[i], PM_TYPE_U64, &a,
				   PM_TYPE_U64) < 0)
			printf("%s %d ?\n", tag, vs->vlist[i].inst);
		else
			printf("%s %d %llu\n", tag, vs->vlist[i].inst,
			       (unsigned long long)a.ull);
	}
}

int main(int argc, char **argv)
{
	char spec[4096];
	pmID pmid = pmID_build(CSF, 1, 0);	/* csf.thread.time.running */
	pmResult *a, *b;
	const char *err;
	int sts;

	if (argc != 3) {
		fprintf(stderr, "usage: local_fetch DSO COMMAND\n");
		return 2;
	}
	snprintf(spec, sizeof(spec), "add,%d,%s,csf_init", CSF, argv[1]);
	err = pmSpecLocalPMDA("clear");
	if (!err)
		err = pmSpecLocalPMDA(spec);
	if (err) {
		fprintf(stderr, "local_fetch: %s: %s\n", spec, err);
		return 1;
	}
	sts = pmNewContext(PM_CONTEXT_LOCAL, NULL);
	if (sts >= 0)
		sts = pmFetch(1, &pmid, &a);
	if (sts >= 0 && system(argv[2]) != 0)
		fprintf(stderr, "local_fetch: %s failed\n", argv[2]);
	if (sts >= 0)
		sts = pmFetch(1, &pmid, &b);
	if (sts < 0) {
		fprintf(stderr, "local_fetch: %s\n", pmErrStr(sts));
		return 1;
	}
	print("a", a);
	print("b", b);
	pmFreeResult(a);
	pmFreeResult(b);
	return 0;
}
