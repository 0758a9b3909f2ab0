/*-------------------------------------------------------------------------
 *
 * sizing.c
 *	  How many blocks, and how many bits per element, a filter gets.
 *
 * The model.  A probe picks a block; the number j of elements in it is
 * Binomial(n, 1/nblocks).  Each element owns k distinct bits of the 512, a
 * uniformly random k-subset, so the chance that all k bits of a probe are
 * covered after j elements, call it C_k(j), follows a small dynamic program
 * over hypergeometric draws; the modelled rate is the sum over j of
 * pmf(j) * C_k(j).  bloom_model_fpp computes it.  Sizing takes the fewest
 * blocks whose best k meets BLOOM_SIZING_MARGIN of the request, and where
 * even one block overshoots, the smallest k that still meets it.
 *
 * That definition is part of the format in practice: filters created with
 * the same capacity and rate must keep the same shape across versions, or
 * a union of an old filter with a new one fails.  So the answer must stay
 * bit for bit what the original search (bloom_size_exhaustive, kept below
 * as the reference) returns, floating-point rounding included.  That search
 * bisects over the block count from the standard formula's estimate and
 * evaluates the model from scratch at every probe: the DP tables, an
 * lgamma-based binomial term per j and the DP step per j, for several k per
 * probe: milliseconds per call, far more at small rates (make bench-sizing
 * times both).
 *
 * The fast search computes exactly the same floating-point values, only
 * fewer of them and without recomputing what does not change:
 *
 *  - C_k(j) depends on k and j only, not on n or the block count.  The DP
 *    is run once per k per process, in the same order of operations, and
 *    kept in a static table; the transition probabilities likewise.
 *  - lgamma(j + 1) depends on j only (static table); lgamma(n - j + 1) on n
 *    and j (computed once per call).  The binomial term per j is then one
 *    exp of the same expression, shared by every k tried at that block count.
 *  - The model at a given (block count, k) is then a dot product.
 *
 * Each of these yields the identical double, so "does this block count meet
 * the target" is decided exactly as the reference decides it.  What changes
 * is which block counts are asked: instead of doubling and then bisecting
 * from a loose lower bound (25-30 probes), the search interpolates on the
 * logarithm of the modelled rate, which is close to linear in the block
 * count, and closes in on the smallest block count that meets the target in
 * a handful of probes.  It returns B only once B is known to meet the target
 * and B - 1 (or the reference's lower bound) known not to, which is the
 * reference's answer as long as "meets the target" switches once from false
 * to true as B grows.  Mathematically it does (more blocks means fewer
 * elements per block, stochastically, and C_k increasing in j); numerically,
 * the model's rounding error is a fixed relative error per term (lgamma of
 * the large arguments cancels), orders of magnitude below the change of the
 * rate from one block to the next, so it stays monotone.  test/unit_sizing.c
 * holds the fast search to the reference over a grid of capacities and
 * rates, and checks the switch point is clean on both sides.
 *
 * XXX Both searches are compiled in this one file with the same flags.  A
 * build that lets the compiler contract a * b + c into a fused
 * multiply-add (-ffp-contract=fast on a target with FMA, e.g.
 * -march=native) could round them differently, from each other and from
 * the default x86-64 build; the unit test would show it.
 *
 * src/core/sizing.c
 *
 *-------------------------------------------------------------------------
 */
#include "core/blocked.h"
#include "core/sizing.h"

#include <math.h>
#include <string.h>

/* ---- the reference: the original model and search, unchanged ---- */

static double
log_choose(double n, double k)
{
	return lgamma(n + 1.0) - lgamma(k + 1.0) - lgamma(n - k + 1.0);
}

/*
 * Modelled false-positive rate of a blocked filter of nblocks blocks holding
 * n elements with k distinct bits each.  A probe picks a block; the number j
 * of elements in it is Binomial(n, 1/nblocks).  cover[c] is the chance that
 * exactly c of the probe's k bits are set after the block's elements so far;
 * each element sets a uniformly random k-subset of the 512 bits, so it covers
 * t more of the u = k - c uncovered probe bits with hypergeometric
 * probability C(u,t) C(512-u, k-t) / C(512, k).
 */
double
bloom_model_fpp(double n, uint64_t nblocks, int k)
{
	const double B = BLOOM_BLOCK_BITS;
	double		trans[BLOOM_MAX_HASHES + 1][BLOOM_MAX_HASHES + 1];
	double		cover[BLOOM_MAX_HASHES + 1];
	double		next[BLOOM_MAX_HASHES + 1];
	double		q = 1.0 / (double) nblocks;
	double		lambda = n * q;
	double		jmax;
	double		fpp = 0.0;
	double		lc_bk = log_choose(B, k);

	for (int u = 0; u <= k; u++)
		for (int t = 0; t <= u; t++)
			trans[u][t] = exp(log_choose(u, t) + log_choose(B - u, k - t) - lc_bk);

	memset(cover, 0, sizeof(cover));
	cover[0] = 1.0;

	jmax = (nblocks == 1) ? n : fmin(n, ceil(lambda + 12.0 * sqrt(lambda) + 30.0));
	for (double j = 0; j <= jmax; j += 1.0)
	{
		double		pmf;

		if (nblocks == 1)
			pmf = (j == n) ? 1.0 : 0.0;
		else
			pmf = exp(log_choose(n, j) + j * log(q) + (n - j) * log1p(-q));
		fpp += pmf * cover[k];

		/* one more element in the block */
		memset(next, 0, sizeof(next));
		for (int c = 0; c <= k; c++)
		{
			int			u = k - c;

			if (cover[c] == 0.0)
				continue;
			for (int t = 0; t <= u; t++)
				next[c + t] += cover[c] * trans[u][t];
		}
		memcpy(cover, next, sizeof(cover));
	}
	return fpp;
}

/*
 * The best k for nblocks blocks holding n elements, and its modelled rate,
 * by model(arg, k).  The rate is unimodal in k: walk down from the guess
 * the standard formula gives, then up.  The exhaustive and the fast search
 * share this walk and differ only in how the model is evaluated.
 */
static double
best_k_walk(double n, uint64_t nblocks, double (*model) (void *arg, int k), void *arg,
			int *best_k)
{
	double		lambda = n / (double) nblocks;
	int			guess = (int) floor(log(2.0) * BLOOM_BLOCK_BITS / fmax(lambda, 1e-9));
	double		best = 2.0;

	if (guess < 1)
		guess = 1;
	if (guess > BLOOM_MAX_HASHES)
		guess = BLOOM_MAX_HASHES;
	*best_k = guess;

	for (int step = -1; step <= 1; step += 2)
	{
		for (int k = (step < 0 ? guess : guess + 1);
			 k >= 1 && k <= BLOOM_MAX_HASHES; k += step)
		{
			double		f = model(arg, k);

			if (f < best)
			{
				best = f;
				*best_k = k;
			}
			else
				break;
		}
	}
	return best;
}

typedef struct ModelArgs
{
	double		n;
	uint64_t	nblocks;
} ModelArgs;

static double
model_from_scratch(void *arg, int k)
{
	ModelArgs  *m = arg;

	return bloom_model_fpp(m->n, m->nblocks, k);
}

/* best k for a given number of blocks, and its modelled rate */
double
bloom_best_k(double n, uint64_t nblocks, int *best_k)
{
	ModelArgs	m = {n, nblocks};

	return best_k_walk(n, nblocks, model_from_scratch, &m, best_k);
}

/*
 * The model is exact on average, so a filter sized to meet the request
 * exactly would measure above it about half the time: we aim at
 * BLOOM_SIZING_MARGIN of it, which costs about 2% more bits at 1%.
 */
bool
bloom_size_exhaustive(uint64_t capacity, double requested_rate,
					  uint64_t *nbits, int *nhashes)
{
	double		error_rate = requested_rate * BLOOM_SIZING_MARGIN;
	double		n = (double) capacity;
	double		m_std = -n * log(error_rate) / (log(2.0) * log(2.0));
	double		lo_d = floor(m_std / BLOOM_BLOCK_BITS * 0.95);
	uint64_t	lo,
				hi;
	int			k;

	/* a blocked filter never beats the standard optimum */
	if (lo_d > (double) BLOOM_MAX_BLOCKS)
		return false;
	lo = (lo_d < 1.0) ? 1 : (uint64_t) lo_d;

	/* find some hi that is big enough, then bisect down to the smallest */
	hi = lo;
	while (bloom_best_k(n, hi, &k) > error_rate)
	{
		lo = hi + 1;
		if (hi >= BLOOM_MAX_BLOCKS)
			return false;
		hi = (hi * 2 > BLOOM_MAX_BLOCKS) ? BLOOM_MAX_BLOCKS : hi * 2;
	}
	while (lo < hi)
	{
		uint64_t	mid = lo + (hi - lo) / 2;

		if (bloom_best_k(n, mid, &k) <= error_rate)
			hi = mid;
		else
			lo = mid + 1;
	}
	/*
	 * Where one block already overshoots (tiny capacities), the best k is
	 * far more than needed; the fewest bits that keep the promise are
	 * cheaper to set and to check.
	 */
	bloom_best_k(n, hi, &k);
	for (int fewer = 1; fewer < k; fewer++)
	{
		if (bloom_model_fpp(n, hi, fewer) <= error_rate)
		{
			k = fewer;
			break;
		}
	}
	*nhashes = k;
	*nbits = hi * BLOOM_BLOCK_BITS;
	return true;
}

/* ---- the same values, computed once ---- */

/*
 * Terms j < SIZING_JCACHE come from tables; the rare larger ones (rates
 * near 1, where a block holds a thousand elements or more) are computed on
 * the fly from the same expressions.
 */
#define SIZING_JCACHE	1024

/*
 * Per k: the hypergeometric transitions and C_k(j) for j < cover_len[k],
 * plus the DP state after cover_len[k] elements, to extend the table from.
 * The transitions of k are packed in trans_pool at trans_offset(k), row u
 * holding t = 0..u.
 */
#define TRANS_POOL_SIZE	50000	/* sum over k of (k+1)(k+2)/2 is 47,904 */

static double trans_pool[TRANS_POOL_SIZE];
static bool trans_ready[BLOOM_MAX_HASHES + 1];
static double cover_tab[BLOOM_MAX_HASHES + 1][SIZING_JCACHE];
static int	cover_len[BLOOM_MAX_HASHES + 1];
static double cover_state[BLOOM_MAX_HASHES + 1][BLOOM_MAX_HASHES + 1];

/* lgamma(j + 1) for j < lgj_len */
static double lgj_tab[SIZING_JCACHE];
static int	lgj_len;

static int
trans_offset(int k)
{
	/* sum over k' < k of (k'+1)(k'+2)/2 */
	return k * (k + 1) * (k + 2) / 6;
}

static const double *
sizing_trans(int k)
{
	double	   *tr = trans_pool + trans_offset(k);

	if (!trans_ready[k])
	{
		const double B = BLOOM_BLOCK_BITS;
		double		lc_bk = log_choose(B, k);

		for (int u = 0; u <= k; u++)
			for (int t = 0; t <= u; t++)
				tr[u * (u + 1) / 2 + t] =
					exp(log_choose(u, t) + log_choose(B - u, k - t) - lc_bk);
		trans_ready[k] = true;
	}
	return tr;
}

/* one more element in the block: bloom_model_fpp's step, same order */
static void
sizing_cover_step(int k, const double *tr, double *cover)
{
	double		next[BLOOM_MAX_HASHES + 1];

	memset(next, 0, sizeof(next));
	for (int c = 0; c <= k; c++)
	{
		int			u = k - c;

		if (cover[c] == 0.0)
			continue;
		for (int t = 0; t <= u; t++)
			next[c + t] += cover[c] * tr[u * (u + 1) / 2 + t];
	}
	memcpy(cover, next, sizeof(next));
}

/* make C_k(j) available from the table for j < len (len <= SIZING_JCACHE) */
static void
sizing_cover_extend(int k, int len)
{
	const double *tr;

	if (cover_len[k] >= len)
		return;
	tr = sizing_trans(k);
	if (cover_len[k] == 0)
	{
		memset(cover_state[k], 0, sizeof(cover_state[k]));
		cover_state[k][0] = 1.0;
	}
	while (cover_len[k] < len)
	{
		cover_tab[k][cover_len[k]++] = cover_state[k][k];
		sizing_cover_step(k, tr, cover_state[k]);
	}
}

/* Everything about one call that does not depend on k. */
typedef struct SizingCtx
{
	double		n;
	double		lg_n1;			/* lgamma(n + 1) */
	int			lgnj_len;
	double		lgnj[SIZING_JCACHE];	/* lgamma(n - j + 1) */

	/* the block count the terms below are for */
	uint64_t	nblocks;
	double		q;
	double		log_q;
	double		log1m_q;
	double		jmax;
	int			npmf;			/* pmf[] holds j <= min(jmax, JCACHE - 1) */
	double		pmf[SIZING_JCACHE];
	double		memo[BLOOM_MAX_HASHES + 1];	/* model per k, or -1 */

	int			probes;			/* block counts evaluated, for the tests */
} SizingCtx;

static void
sizing_ctx_init(SizingCtx *ctx, double n)
{
	ctx->n = n;
	ctx->lg_n1 = lgamma(n + 1.0);
	ctx->lgnj_len = 0;
	ctx->nblocks = 0;
	ctx->probes = 0;
}

static double
sizing_lgj(int j)
{
	while (lgj_len <= j)
	{
		lgj_tab[lgj_len] = lgamma((double) lgj_len + 1.0);
		lgj_len++;
	}
	return lgj_tab[j];
}

/* the binomial term of bloom_model_fpp, nblocks > 1, from cached lgammas */
static double
sizing_pmf_term(SizingCtx *ctx, int idx)
{
	double		n = ctx->n;
	double		j = (double) idx;
	double		lc;

	if (idx < SIZING_JCACHE)
	{
		while (ctx->lgnj_len <= idx)
		{
			ctx->lgnj[ctx->lgnj_len] = lgamma(n - (double) ctx->lgnj_len + 1.0);
			ctx->lgnj_len++;
		}
		lc = ctx->lg_n1 - sizing_lgj(idx) - ctx->lgnj[idx];
	}
	else
		lc = ctx->lg_n1 - lgamma(j + 1.0) - lgamma(n - j + 1.0);
	return exp(lc + j * ctx->log_q + (n - j) * ctx->log1m_q);
}

static void
sizing_set_blocks(SizingCtx *ctx, uint64_t nblocks)
{
	double		n = ctx->n;
	double		lambda;

	if (ctx->nblocks == nblocks)
		return;
	ctx->nblocks = nblocks;
	ctx->probes++;
	ctx->q = 1.0 / (double) nblocks;
	lambda = n * ctx->q;
	ctx->log_q = log(ctx->q);
	ctx->log1m_q = log1p(-ctx->q);
	ctx->jmax = (nblocks == 1) ? n : fmin(n, ceil(lambda + 12.0 * sqrt(lambda) + 30.0));
	ctx->npmf = (ctx->jmax < SIZING_JCACHE - 1) ? (int) ctx->jmax + 1 : SIZING_JCACHE;
	for (int i = 0; i < ctx->npmf; i++)
	{
		if (nblocks == 1)
			ctx->pmf[i] = ((double) i == n) ? 1.0 : 0.0;
		else
			ctx->pmf[i] = sizing_pmf_term(ctx, i);
	}
	for (int k = 0; k <= BLOOM_MAX_HASHES; k++)
		ctx->memo[k] = -1.0;
}

/* bloom_model_fpp(ctx->n, ctx->nblocks, k), the identical double */
static double
sizing_model(SizingCtx *ctx, int k)
{
	double		fpp = 0.0;
	int			i;

	if (ctx->memo[k] >= 0.0)
		return ctx->memo[k];

	sizing_cover_extend(k, ctx->npmf);
	for (i = 0; i < ctx->npmf; i++)
		fpp += ctx->pmf[i] * cover_tab[k][i];

	/* beyond the tables: carry the DP on from its state at the last entry */
	if ((double) i <= ctx->jmax)
	{
		const double *tr = sizing_trans(k);
		double		cover[BLOOM_MAX_HASHES + 1];

		memcpy(cover, cover_state[k], sizeof(cover));
		for (double j = (double) i; j <= ctx->jmax; j += 1.0)
		{
			double		pmf;

			if (ctx->nblocks == 1)
				pmf = (j == ctx->n) ? 1.0 : 0.0;
			else
				pmf = sizing_pmf_term(ctx, (int) j);
			fpp += pmf * cover[k];
			sizing_cover_step(k, tr, cover);
		}
	}
	ctx->memo[k] = fpp;
	return fpp;
}

/* one model value through the tables, for the tests */
double
bloom_model_fpp_cached(double n, uint64_t nblocks, int nhashes)
{
	SizingCtx	ctx;

	sizing_ctx_init(&ctx, n);
	sizing_set_blocks(&ctx, nblocks);
	return sizing_model(&ctx, nhashes);
}

static double
model_cached(void *arg, int k)
{
	return sizing_model((SizingCtx *) arg, k);
}

/* bloom_best_k on the cached values */
static double
sizing_best_k(SizingCtx *ctx, uint64_t nblocks, int *best_k)
{
	sizing_set_blocks(ctx, nblocks);
	return best_k_walk(ctx->n, nblocks, model_cached, ctx, best_k);
}

/*
 * Blocked bits over standard bits, m / (-n ln p / (ln 2)^2) with p the
 * target, as bloom_size_search finds it for large capacities at rates
 * 10^(-i/2), i = 0..20.  Only a starting point for the search: smaller
 * capacities differ by a few percent, and the search corrects it.
 */
static const double sizing_penalty_tab[21] = {
	1.006, 1.002, 1.012, 1.017, 1.034, 1.054, 1.080, 1.112, 1.147, 1.189,
	1.234, 1.288, 1.344, 1.411, 1.479, 1.561, 1.643, 1.742, 1.841, 1.961,
	2.082
};

static double
sizing_penalty(double target)
{
	double		x = -2.0 * log10(target);
	int			i;

	if (!(x > 0.0))
		return sizing_penalty_tab[0];
	if (x >= 20.0)
		return sizing_penalty_tab[20];
	i = (int) x;
	return sizing_penalty_tab[i] + (x - i) * (sizing_penalty_tab[i + 1] - sizing_penalty_tab[i]);
}

/*
 * The search for the smallest block count in [lo, BLOOM_MAX_BLOCKS] whose
 * best rate meets target.  known_false and known_true bracket it: every
 * count up to known_false fails (lo - 1 stands for "nothing below lo
 * counts"), known_true meets it (BLOOM_MAX_BLOCKS + 1 stands for "none found
 * yet").  Whether a count meets the target is decided on the rate, exactly
 * as the reference decides; g = ln(rate) - ln(target), close to linear in
 * the block count, only steers: the next probe is where the secant through
 * the two latest probes crosses zero, rounded up, so that near the end one
 * probe lands on the answer and the next, one block below, shows it is the
 * smallest.  Probes stay strictly inside the bracket, so the loop ends; if
 * the secant has not finished within a dozen probes, it bisects instead.
 *
 * Returns 0 when no count up to BLOOM_MAX_BLOCKS meets the target.
 */
#define SIZING_SECANT_PROBES 12

static uint64_t
sizing_search(SizingCtx *ctx, uint64_t lo, double guess, double target)
{
	double		log_target = log(target);
	uint64_t	known_false = lo - 1;
	uint64_t	known_true = BLOOM_MAX_BLOCKS + 1;
	double		x_prev = 0.0,
				g_prev = 0.0;
	bool		have_prev = false;
	double		x = guess;
	int			k;

	for (int iter = 0; known_true - known_false > 1; iter++)
	{
		uint64_t	b;
		double		c = ceil(x);
		double		rate;
		double		g;

		if (iter >= SIZING_SECANT_PROBES)
		{
			if (known_true > BLOOM_MAX_BLOCKS)
				b = (known_false >= BLOOM_MAX_BLOCKS / 2) ? BLOOM_MAX_BLOCKS :
					known_false * 2 + 1;
			else
				b = known_false + (known_true - known_false) / 2;
		}
		else if (!(c > (double) known_false))	/* also catches NaN */
			b = known_false + 1;
		else if (c >= (double) known_true)
			b = known_true - 1;
		else
			b = (uint64_t) c;

		rate = sizing_best_k(ctx, b, &k);
		if (rate <= target)
			known_true = b;
		else
			known_false = b;

		g = log(rate) - log_target;
		if (have_prev && g != g_prev)
			x = (double) b - g * ((double) b - x_prev) / (g - g_prev);
		else
		{
			/* one probe so far: the rate's logarithm is about proportional to m */
			x = (double) b * (log_target / log(rate));
		}
		x_prev = (double) b;
		g_prev = g;
		have_prev = true;
	}
	return (known_true > BLOOM_MAX_BLOCKS) ? 0 : known_true;
}

bool
bloom_size_search(uint64_t capacity, double requested_rate,
				  uint64_t *nbits, int *nhashes)
{
	/* the reference's bounds and target, computed the same way */
	double		error_rate = requested_rate * BLOOM_SIZING_MARGIN;
	double		n = (double) capacity;
	double		m_std = -n * log(error_rate) / (log(2.0) * log(2.0));
	double		lo_d = floor(m_std / BLOOM_BLOCK_BITS * 0.95);
	uint64_t	lo,
				hi;
	int			k;
	SizingCtx	ctx;

	if (lo_d > (double) BLOOM_MAX_BLOCKS)
		return false;
	lo = (lo_d < 1.0) ? 1 : (uint64_t) lo_d;

	sizing_ctx_init(&ctx, n);
	hi = sizing_search(&ctx, lo, m_std / BLOOM_BLOCK_BITS * sizing_penalty(error_rate),
					   error_rate);
	if (hi == 0)
		return false;

	/* as the reference: the best k, or fewer where fewer keep the promise */
	sizing_best_k(&ctx, hi, &k);
	for (int fewer = 1; fewer < k; fewer++)
	{
		if (sizing_model(&ctx, fewer) <= error_rate)
		{
			k = fewer;
			break;
		}
	}
	*nhashes = k;
	*nbits = hi * BLOOM_BLOCK_BITS;
	return true;
}

/* ---- recent answers ---- */

/*
 * bf_create(col, p) over a table sizes once per row, usually for a few
 * distinct pairs; bf_agg sizes once per group.  A small direct-mapped cache
 * answers a repeated pair at once.  Per backend, so no locking.
 */
#define SIZING_CACHE_SIZE 16

typedef struct SizingCacheEntry
{
	uint64_t	capacity;
	double		rate;
	uint64_t	nbits;			/* 0: too large */
	int			nhashes;
	bool		valid;
} SizingCacheEntry;

static SizingCacheEntry sizing_cache[SIZING_CACHE_SIZE];

bool
bloom_size(uint64_t capacity, double error_rate, uint64_t *nbits, int *nhashes)
{
	uint64_t	rate_bits;
	uint64_t	h;
	SizingCacheEntry *e;
	bool		ok;

	memcpy(&rate_bits, &error_rate, sizeof(rate_bits));
	h = (capacity ^ (rate_bits * UINT64_C(0x9E3779B97F4A7C15))) * UINT64_C(0xBF58476D1CE4E5B9);
	e = &sizing_cache[h >> 60];
	if (e->valid && e->capacity == capacity &&
		memcmp(&e->rate, &error_rate, sizeof(double)) == 0)
	{
		if (e->nbits == 0)
			return false;
		*nbits = e->nbits;
		*nhashes = e->nhashes;
		return true;
	}

	ok = bloom_size_search(capacity, error_rate, nbits, nhashes);
	e->capacity = capacity;
	e->rate = error_rate;
	e->nbits = ok ? *nbits : 0;
	e->nhashes = ok ? *nhashes : 0;
	e->valid = true;
	return ok;
}
