/*
 * Fixture of scripts/check-function-length.py (make check-style): one
 * function of exactly 80 lines, one of 81, and a struct and an initializer
 * longer than both, which are not functions.  Never compiled.
 */
static int
just_right(int x)
{
	x += 0;
	x += 1;
	x += 2;
	x += 3;
	x += 4;
	x += 5;
	x += 6;
	x += 7;
	x += 8;
	x += 9;
	x += 10;
	x += 11;
	x += 12;
	x += 13;
	x += 14;
	x += 15;
	x += 16;
	x += 17;
	x += 18;
	x += 19;
	x += 20;
	x += 21;
	x += 22;
	x += 23;
	x += 24;
	x += 25;
	x += 26;
	x += 27;
	x += 28;
	x += 29;
	x += 30;
	x += 31;
	x += 32;
	x += 33;
	x += 34;
	x += 35;
	x += 36;
	x += 37;
	x += 38;
	x += 39;
	x += 40;
	x += 41;
	x += 42;
	x += 43;
	x += 44;
	x += 45;
	x += 46;
	x += 47;
	x += 48;
	x += 49;
	x += 50;
	x += 51;
	x += 52;
	x += 53;
	x += 54;
	x += 55;
	x += 56;
	x += 57;
	x += 58;
	x += 59;
	x += 60;
	x += 61;
	x += 62;
	x += 63;
	x += 64;
	x += 65;
	x += 66;
	x += 67;
	x += 68;
	x += 69;
	x += 70;
	x += 71;
	x += 72;
	x += 73;
	x += 74;
	x += 75;
	return x;
}

static int
too_long(int x)
{
	x += 0;
	x += 1;
	x += 2;
	x += 3;
	x += 4;
	x += 5;
	x += 6;
	x += 7;
	x += 8;
	x += 9;
	x += 10;
	x += 11;
	x += 12;
	x += 13;
	x += 14;
	x += 15;
	x += 16;
	x += 17;
	x += 18;
	x += 19;
	x += 20;
	x += 21;
	x += 22;
	x += 23;
	x += 24;
	x += 25;
	x += 26;
	x += 27;
	x += 28;
	x += 29;
	x += 30;
	x += 31;
	x += 32;
	x += 33;
	x += 34;
	x += 35;
	x += 36;
	x += 37;
	x += 38;
	x += 39;
	x += 40;
	x += 41;
	x += 42;
	x += 43;
	x += 44;
	x += 45;
	x += 46;
	x += 47;
	x += 48;
	x += 49;
	x += 50;
	x += 51;
	x += 52;
	x += 53;
	x += 54;
	x += 55;
	x += 56;
	x += 57;
	x += 58;
	x += 59;
	x += 60;
	x += 61;
	x += 62;
	x += 63;
	x += 64;
	x += 65;
	x += 66;
	x += 67;
	x += 68;
	x += 69;
	x += 70;
	x += 71;
	x += 72;
	x += 73;
	x += 74;
	x += 75;
	x += 76;
	return x;
}

typedef struct LongStruct
{
	int		f0;
	int		f1;
	int		f2;
	int		f3;
	int		f4;
	int		f5;
	int		f6;
	int		f7;
	int		f8;
	int		f9;
	int		f10;
	int		f11;
	int		f12;
	int		f13;
	int		f14;
	int		f15;
	int		f16;
	int		f17;
	int		f18;
	int		f19;
	int		f20;
	int		f21;
	int		f22;
	int		f23;
	int		f24;
	int		f25;
	int		f26;
	int		f27;
	int		f28;
	int		f29;
	int		f30;
	int		f31;
	int		f32;
	int		f33;
	int		f34;
	int		f35;
	int		f36;
	int		f37;
	int		f38;
	int		f39;
	int		f40;
	int		f41;
	int		f42;
	int		f43;
	int		f44;
	int		f45;
	int		f46;
	int		f47;
	int		f48;
	int		f49;
	int		f50;
	int		f51;
	int		f52;
	int		f53;
	int		f54;
	int		f55;
	int		f56;
	int		f57;
	int		f58;
	int		f59;
	int		f60;
	int		f61;
	int		f62;
	int		f63;
	int		f64;
	int		f65;
	int		f66;
	int		f67;
	int		f68;
	int		f69;
	int		f70;
	int		f71;
	int		f72;
	int		f73;
	int		f74;
	int		f75;
	int		f76;
	int		f77;
	int		f78;
	int		f79;
	int		f80;
	int		f81;
	int		f82;
	int		f83;
	int		f84;
	int		f85;
	int		f86;
	int		f87;
	int		f88;
	int		f89;
} LongStruct;

static const int long_table[] =
{
	0,
	1,
	2,
	3,
	4,
	5,
	6,
	7,
	8,
	9,
	10,
	11,
	12,
	13,
	14,
	15,
	16,
	17,
	18,
	19,
	20,
	21,
	22,
	23,
	24,
	25,
	26,
	27,
	28,
	29,
	30,
	31,
	32,
	33,
	34,
	35,
	36,
	37,
	38,
	39,
	40,
	41,
	42,
	43,
	44,
	45,
	46,
	47,
	48,
	49,
	50,
	51,
	52,
	53,
	54,
	55,
	56,
	57,
	58,
	59,
	60,
	61,
	62,
	63,
	64,
	65,
	66,
	67,
	68,
	69,
	70,
	71,
	72,
	73,
	74,
	75,
	76,
	77,
	78,
	79,
	80,
	81,
	82,
	83,
	84,
	85,
	86,
	87,
	88,
	89,
};
