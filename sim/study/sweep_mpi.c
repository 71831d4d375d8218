/* sweep_mpi.c - a sweep spread over MPI ranks (`make MPI=1`, then
 * `mpirun -n K slabsim sweep ...`): rank 0 hands out runs one at a time to
 * ranks 1..K-1 as they become free, and alone writes the results. Without
 * MPI (the plain build) a sweep has one rank. */
#include "sweep.h"
#include "engine/oom.h"

#ifdef SLABSIM_MPI

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { TAG_READY = 1, TAG_RESULT, TAG_WORK };

static int nranks = 1;

int sweep_mpi_init(int *argc, char ***argv, int *rank)
{
	MPI_Init(argc, argv);
	MPI_Comm_size(MPI_COMM_WORLD, &nranks);
	MPI_Comm_rank(MPI_COMM_WORLD, rank);
	return nranks;
}

void sweep_mpi_finish(void)
{
	MPI_Finalize();
}

bool sweep_mpi_agree(bool go)
{
	int decision = go;
	MPI_Bcast(&decision, 1, MPI_INT, 0, MPI_COMM_WORLD);
	return decision != 0;
}

/* A result message: "RUN FAILED\n" then the run's line, or "RUN -1\n" and
 * the reason it produced none. */
int sweep_mpi_coordinate(const struct experiment *e, const int *todo, int n,
			 sweep_done_fn done, void *ctx)
{
	int next = 0, active = nranks - 1, crashed = 0;
	while (active) {
		MPI_Status st;
		int len;
		MPI_Probe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
		MPI_Get_count(&st, MPI_CHAR, &len);
		char *msg = malloc((size_t)len + 1);
		MPI_Recv(msg, len, MPI_CHAR, st.MPI_SOURCE, st.MPI_TAG, MPI_COMM_WORLD,
			 MPI_STATUS_IGNORE);
		msg[len] = 0;
		if (st.MPI_TAG == TAG_RESULT) {
			int run = -1, flag = 0;
			char *body = strchr(msg, '\n');
			sscanf(msg, "%d %d", &run, &flag);
			if (body && run >= 0 && run < experiment_runs(e) && flag >= 0) {
				done(ctx, run, body + 1, NULL);
			} else {
				done(ctx, run, NULL, body ? body + 1 : "a malformed message");
				crashed++;
			}
		}
		free(msg);
		int work = next < n ? todo[next++] : -1;
		MPI_Send(&work, 1, MPI_INT, st.MPI_SOURCE, TAG_WORK, MPI_COMM_WORLD);
		if (work < 0)
			active--;
	}
	return crashed;
}

int sweep_mpi_work(const struct experiment *e)
{
	MPI_Send("", 0, MPI_CHAR, 0, TAG_READY, MPI_COMM_WORLD);
	for (;;) {
		int run;
		MPI_Recv(&run, 1, MPI_INT, 0, TAG_WORK, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		if (run < 0)
			return 0;
		struct sim_err err;
		bool failed = false;
		char *line = sweep_run_one(e, run, &failed, &err);
		char *msg;
		int len = line ? asprintf(&msg, "%d %d\n%s", run, failed, line)
			       : asprintf(&msg, "%d -1\n%s", run, err.msg);
		if (len < 0)
			host_oom(__func__);
		MPI_Send(msg, len, MPI_CHAR, 0, TAG_RESULT, MPI_COMM_WORLD);
		free(msg);
		free(line);
	}
}

#else /* !SLABSIM_MPI */

int sweep_mpi_init(int *argc, char ***argv, int *rank)
{
	*rank = 0;
	return 1;
}

void sweep_mpi_finish(void)
{
}

bool sweep_mpi_agree(bool go)
{
	return go;
}

int sweep_mpi_coordinate(const struct experiment *e, const int *todo, int n,
			 sweep_done_fn done, void *ctx)
{
	return -1;
}

int sweep_mpi_work(const struct experiment *e)
{
	return -1;
}

#endif
