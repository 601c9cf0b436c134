//go:build ignore

// gen_libm writes simd_libm_amd64.s: AVX2 and AVX-512 loops of exp, log,
// sin, cos, sigmoid, silu, log1p, tanh, exp2, atan, tan, expm1, asin,
// acos, log10, cosh, sinh, atanh, log2, asinh and acosh (one operand) and
// of pow and atan2 (two) on float32 and float64 that give the bits of Go's
// math package (see simd_libm.go). Run it with go generate.
//
// Each loop replays, four lanes at a time, the exact sequence of IEEE
// operations of the scalar code it stands for: math.Exp is the FMA path
// of $GOROOT/src/math/exp_amd64.s (archExp, taken when the CPU has AVX
// and FMA), math.Log is $GOROOT/src/math/log_amd64.s (archLog; Go does
// not fuse multiplies and adds on amd64 below GOAMD64=v3), sinF64 and
// cosF64 (libm.go) are the algorithm of $GOROOT/src/math/sin.go (sin,
// cos: Cody-Waite reduction with PI4A, PI4B, PI4C below 2^29, then one of
// two polynomials by octant) with its multiplies and adds fused; the
// others are named at their bodies. Lanes outside the range where the scalar code takes
// that path (NaN, infinities, overflow, subnormal results, huge
// arguments) stop the loop before the group is stored; the Go wrapper
// computes that group with the scalar function and goes on.
package main

import (
	"bytes"
	"fmt"
	"log"
	"math"
	"math/big"
	"os"
	"regexp"
	"strconv"
	"strings"
)

// Constants, replicated four times (32 bytes). The decimal literals are
// those of the Go sources named above.
var consts = []struct {
	name string
	v    float64
}{
	// exp_amd64.s
	{"LOG2E", 1.4426950408889634073599246810018920},
	{"LN2U", 0.69314718055966295651160180568695068359375},
	{"LN2L", 0.28235290563031577122588448175013436025525412068e-12},
	{"SIXTEENTH", 0.0625},
	{"E0", 0.5},
	{"E8", 1.0},
	{"E16", 2.0},
	{"E24", 1.6666666666666666667e-1},
	{"E32", 4.1666666666666666667e-2},
	{"E40", 8.3333333333333333333e-3},
	{"E48", 1.3888888888888888889e-3},
	{"E56", 1.9841269841269841270e-4},
	{"E64", 2.4801587301587301587e-5},
	// log_amd64.s
	{"HSQRT2", 7.07106781186547524401e-01},
	{"LN2HI", 6.93147180369123816490e-01},
	{"LN2LO", 1.90821492927058770002e-10},
	{"L1", 6.666666666666735130e-01},
	{"L2", 3.999999999940941908e-01},
	{"L3", 2.857142874366239149e-01},
	{"L4", 2.222219843214978396e-01},
	{"L5", 1.818357216161805012e-01},
	{"L6", 1.531383769920937332e-01},
	{"L7", 1.479819860511658591e-01},
	{"KMAGIC", 0x1p52 + 0x3FE}, // 2^52 + 1022
	// sin.go
	{"FOPI", 4 / math.Pi},
	{"PI4A", 7.85398125648498535156e-1},
	{"PI4B", 3.77489470793079817668e-8},
	{"PI4C", 2.69515142907905952645e-15},
	{"TRIGMAX", 1 << 29}, // reduceThreshold
	{"S0", 1.58962301576546568060e-10},
	{"S1", -2.50507477628578072866e-8},
	{"S2", 2.75573136213857245213e-6},
	{"S3", -1.98412698295895385996e-4},
	{"S4", 8.33333333332211858878e-3},
	{"S5", -1.66666666666666307295e-1},
	{"C0", -1.13585365213876817300e-11},
	{"C1", 2.08757008419747316778e-9},
	{"C2", -2.75573141792967388112e-7},
	{"C3", 2.48015872888517045348e-5},
	{"C4", -1.38888888888730564116e-3},
	{"C5", 4.16666666666665929218e-2},
	// tanh.go
	{"HALFMAXLOG", 0.5 * 8.8029691931113054295988e+01},
	{"C0625", 0.625},
	{"TP0", -9.64399179425052238628e-1},
	{"TP1", -9.92877231001918586564e1},
	{"TP2", -1.61468768441708447952e3},
	{"TQ0", 1.12811678491632931402e2},
	{"TQ1", 2.23548839060100448583e3},
	{"TQ2", 4.84406305325125486048e3},
	// log1p.go
	{"MINUS1", -1},
	{"TWO53", 1 << 53},
	{"SMALL", 1.0 / (1 << 29)},
	{"SQRT2M1", 4.142135623730950488017e-01},
	{"SQRT2HALFM1", -2.928932188134524755992e-01},
	{"KMAGIC1023", 0x1p52 + 1023},
	// pow.go
	{"YMAX", 15.5},     // |y| < 15.5: yi <= 15, four bits
	{"XMIN", 0x1p-256}, // 2^-256 <= x <= 2^256: Frexp's exponent
	{"XMAX", 0x1p256},  // stays far from the loop's guard (±2^12)
	{"AEMAGIC", 0x1p52 + 1023},
	{"AEMAX", 1000},
	// exp.go (exp2, expmulti)
	{"EXP2MAX", 1000}, // |x| <= 1000: Ldexp(y, k) is y·2^k, normal
	{"EP1", 1.66666666666666657415e-01},
	{"EP2", -2.77777777770155933842e-03},
	{"EP3", 6.61375632143793436117e-05},
	{"EP4", -1.65339022054652515390e-06},
	{"EP5", 4.13813679705723846039e-08},
	// atan.go
	{"AP0", -8.750608600031904122785e-01},
	{"AP1", -1.615753718733365076637e+01},
	{"AP2", -7.500855792314704667340e+01},
	{"AP3", -1.228866684490136173410e+02},
	{"AP4", -6.485021904942025371773e+01},
	{"AQ0", +2.485846490142306297962e+01},
	{"AQ1", +1.650270098316988542046e+02},
	{"AQ2", +4.328810604912902668951e+02},
	{"AQ3", +4.853903996359136964868e+02},
	{"AQ4", +1.945506571482613964425e+02},
	{"ATANSMALL", 0.66},
	{"TAN3PIO8", 2.41421356237309504880},
	{"PIO2", math.Pi / 2},
	{"PIO4", math.Pi / 4},
	{"PI", math.Pi},
	{"MOREBITS", 6.123233995736765886130e-17},
	{"HMOREBITS", 0.5 * 6.123233995736765886130e-17},
	// tan.go, and tanF64's series (libm.go)
	{"TANP0", -1.30936939181383777646e4},
	{"TANP1", 1.15351664838587416140e6},
	{"TANP2", -1.79565251976484877988e7},
	{"TANQ1", 1.36812963470692954678e4},
	{"TANQ2", -1.32089234440210967447e6},
	{"TANQ3", 2.50083801823357915839e7},
	{"TANQ4", -5.38695755929454629881e7},
	{"TANSMALL", 0x1p-12},
	{"THIRD", 1.0 / 3},
	{"TWO15", 2.0 / 15},
	{"P15MIN", 0x1p-84},   // pow15Body: (2^-84)^1.5 = 2^-126
	{"RMIN", 0x1p-1000},   // recipBody, powmhBody
	{"P15DMIN", 0x1p-600}, // pow15dBody: x^1.5 in [2^-900, 2^900]
	{"P15DMAX", 0x1p600},
	{"PHXMIN", 0x1p-60}, // powhBody: x^15.5 in [2^-930, 2^930]
	{"PHXMAX", 0x1p60},
	{"PHYMAX", 14.5},
	{"TWOM96", 0x1p-96}, // ddRoundCheck
	// asinCore: π/2 and π's second parts (libm.go's pio2Lo, piLo); its
	// ASD0-ASD23 are added by init (asinTaylorD)
	{"LN2LOD", 0x1.abc9e3b39803fp-56}, // exp2Body: libm.go's ln2Lo (simd.go)
	{"PIO2LO", 0x1.1a62633145c07p-54},
	{"PILO", 0x1.1a62633145c07p-53},
	{"RFAST", 0x1p900},
	{"ONEM40", 1 - 0x1p-40},
	{"EXPM1RMIN", 0x1p-7}, // expm1r32Body
	{"EIGHTH", 0.125},     // asinhr32Body, atanhr32Body
	{"MINF32", 0x1p-126},
	// taylorSmall: atanh(x)/x = Σ x^2k/(2k+1), asinh(x)/x = Σ (-1)^k
	// (2k)!/(4^k (k!)² (2k+1)) x^2k, k = 0..8
	{"ATH0", 0x1p+0},
	{"ATH1", 0x1.5555555555555p-2},
	{"ATH2", 0x1.999999999999ap-3},
	{"ATH3", 0x1.2492492492492p-3},
	{"ATH4", 0x1.c71c71c71c71cp-4},
	{"ATH5", 0x1.745d1745d1746p-4},
	{"ATH6", 0x1.3b13b13b13b14p-4},
	{"ATH7", 0x1.1111111111111p-4},
	{"ATH8", 0x1.e1e1e1e1e1e1ep-5},
	{"ASH0", 1.0},
	{"ASH1", -0.16666666666666666},
	{"ASH2", 0.075},
	{"ASH3", -0.044642857142857144},
	{"ASH4", 0.030381944444444444},
	{"ASH5", -0.022372159090909092},
	{"ASH6", 0.017352764423076924},
	{"ASH7", -0.01396484375},
	{"ASH8", 0.011551800896139705},
	{"ACOSHRMIN", 1 + 0x1p-15},
	{"RMAX", 0x1p1000},
	// expm1F64 (libm.go)
	{"EM1LO", -36},
	{"EM1HI", 709},
	{"RNDMAGIC", 0x1.8p52},
	{"EMQ1", 1.0 / 6},
	{"EMQ2", 1.0 / 24},
	{"EMQ3", 1.0 / 120},
	{"EMQ4", 1.0 / 720},
	{"EMQ5", 1.0 / 5040},
	{"EMQ6", 1.0 / 40320},
	{"EMQ7", 1.0 / 362880},
	{"EMQ8", 1.0 / 3628800},
	{"EMQ9", 1.0 / 39916800},
	{"EMQ10", 1.0 / 479001600},
	{"EMQ11", 1.0 / 6227020800},
	// log10.go, sinh.go, atanh.go, libm.go
	{"INVLN10", 1 / math.Ln10},
	{"SINHMAX", 709}, // sinhF64 and coshF64 beyond
	{"TWENTYONE", 21},
	{"SP0", -0.6307673640497716991184787251e+6},
	{"SP1", -0.8991272022039509355398013511e+5},
	{"SP2", -0.2894211355989563807284660366e+4},
	{"SP3", -0.2630563213397497062819489e+2},
	{"SQ0", -0.6307673640497716991212077277e+6},
	{"SQ1", 0.1521517378790019070696485176e+5},
	{"SQ2", -0.173678953558233699533450911e+3},
	{"TINY28", 1.0 / (1 << 28)},
	// log10.go (log2), asinh.go, acosh.go
	{"INVLN2X", 1 / math.Ln2},
	{"LN2F", math.Ln2},
	{"LARGE28", 1 << 28},
	// log2Table
	{"LTMAGIC", 0x1p48}, // its ULP is 2^-4
	{"LT1", log2Series[0]},
	{"LT2", log2Series[1]},
	{"LT3", log2Series[2]},
	{"LT4", log2Series[3]},
	{"LT5", log2Series[4]},
	{"LT6", log2Series[5]},
	{"LT7", log2Series[6]},
	{"LT8", log2Series[7]},
	// expTable
	{"ETMAGIC", 0x1.8p48}, // its ULP is 2^-4
	{"EF0", expSeries[0]},
	{"EF1", expSeries[1]},
	{"EF2", expSeries[2]},
	{"EF3", expSeries[3]},
	{"EF4", expSeries[4]},
	{"EF5", expSeries[5]},
	{"EXP2LO", -126},
	{"EXP2HI", 129},
	{"EXPLO", -87},
	{"EXPHI", 89},
	{"EXPM1LO", -100},
	{"HYPHI", 100},
	{"ZEROD", 0},
	{"QUARTER", 0.25},
	{"TANHMAX", 20},
	{"RSQ2", 3.0 / 8},
	// asinPoly
	{"AS0", asinSeries[0]},
	{"AS1", asinSeries[1]},
	{"AS2", asinSeries[2]},
	{"AS3", asinSeries[3]},
	{"AS4", asinSeries[4]},
	{"AS5", asinSeries[5]},
	{"AS6", asinSeries[6]},
	{"AS7", asinSeries[7]},
	{"AS8", asinSeries[8]},
	{"AS9", asinSeries[9]},
	{"AS10", asinSeries[10]},
	{"AS11", asinSeries[11]},
	{"AS12", asinSeries[12]},
	{"AS13", asinSeries[13]},
	// atan2Core
	{"TWOM100", 0x1p-100},
	{"SIXTEEN", 16},
	{"ATLO", 1 - 0x1p-13}, // atanCore
	{"ATHALF", 0x1p-5},
	{"FIFTEEN", 15},
	{"AT3", -1.0 / 3},
	{"AT5", 1.0 / 5},
	{"AT7", -1.0 / 7},
	{"AT9", 1.0 / 9},
	{"AT11", -1.0 / 11},
	// sincosReduce
	{"SC16PI", 16 / math.Pi},
	{"SCMAGIC", 0x1.8p52}, // its ULP is 1
	{"SCP1", piOver16[0]},
	{"SCP2", piOver16[1]},
	{"SCP3", piOver16[2]},
	{"TRIG20", 1 << 20},
	{"SCS1", -1.0 / 6},
	{"SCS2", 1.0 / 120},
	{"SCS3", -1.0 / 5040},
	{"SCS4", 1.0 / 362880},
	{"SCC1", -1.0 / 2},
	{"SCC2", 1.0 / 24},
	{"SCC3", -1.0 / 720},
	{"SCC4", 1.0 / 40320},
	{"RSQ3", 5.0 / 16},
	// sinhTail: sinh(x)/x = Σ x^2k/(2k+1)!, k = 1..5
	{"SHT1", 1.0 / 6},
	{"SHT2", 1.0 / 120},
	{"SHT3", 1.0 / 5040},
	{"SHT4", 1.0 / 362880},
	{"SHT5", 1.0 / 39916800},
	{"LOG10TWO", 0.30102999566398119521373889472449302676818988146210854131},
}

// Integer constants, replicated four times as 64-bit lanes (or eight
// times as 32-bit lanes for the names ending in D).
var iconsts = []struct {
	name string
	v    uint64
}{
	{"SIGN", 1 << 63},
	{"ABS", 1<<63 - 1},
	{"MANT", 1<<52 - 1},
	{"MAGICBITS", 0x4330000000000000}, // 2^52
	{"MINNORMM1", 0x000FFFFFFFFFFFFF},
	{"PINF", 0x7FF0000000000000},
	{"EXP53", 53 << 52}, // recipBody
	{"BIAS", 1023},
	{"ONEQ", 1},
	{"KOFFD", 1022}, // k + 1022 in [0, 2045] for a normal 2^k
	{"KMAXD", 2045},
	{"ONED", 1},
	{"SQRT2MANT", 0x0006a09e667f3bcd},
	{"MANTM4", 1<<52 - 4},
	{"GONAN", 0x7FF8000000000001}, // math.NaN()
	// pow15Body's rounding check
	{"LOW29", 1<<29 - 1},
	{"HALF29", 1 << 28},
	{"ZIVT", 1 << 10},
	{"ZIVC", 1<<64 - 1<<28 + 1<<10}, // roundCheck512: 2^10 - 2^28
	{"ZIVM", 1<<29 - 1<<11},         // bits 11 to 28
}

// expBody: Y0 = x in, Y0 = math.Exp(x) out; exits to done unless every
// lane has k = round(x·log2e) in [-1022, 1023] (which excludes NaN, ±Inf
// and every x whose result overflows or is subnormal).
const expBody = `	VMULPD libmLOG2E<>(SB), Y0, Y1
	VCVTPD2DQY Y1, X2 // k (CVTSD2SL: to nearest)
	VPADDD libmKOFFD<>(SB), X2, X3
	VPMINUD libmKMAXD<>(SB), X3, X4
	VPCMPEQD X3, X4, X4
	VPMOVMSKB X4, AX
	CMPL AX, $0xFFFF
	JNE  done
	VCVTDQ2PD X2, Y1 // float64(k)
	VFNMADD231PD libmLN2U<>(SB), Y1, Y0
	VFNMADD231PD libmLN2L<>(SB), Y1, Y0
	VMULPD libmSIXTEENTH<>(SB), Y0, Y0
	VMOVUPD libmE64<>(SB), Y1
	VFMADD213PD libmE56<>(SB), Y0, Y1
	VFMADD213PD libmE48<>(SB), Y0, Y1
	VFMADD213PD libmE40<>(SB), Y0, Y1
	VFMADD213PD libmE32<>(SB), Y0, Y1
	VFMADD213PD libmE24<>(SB), Y0, Y1
	VFMADD213PD libmE0<>(SB), Y0, Y1
	VFMADD213PD libmE8<>(SB), Y0, Y1
	VMULPD Y1, Y0, Y0
	VADDPD libmE16<>(SB), Y0, Y1
	VMULPD Y1, Y0, Y0
	VADDPD libmE16<>(SB), Y0, Y1
	VMULPD Y1, Y0, Y0
	VADDPD libmE16<>(SB), Y0, Y1
	VMULPD Y1, Y0, Y0
	VADDPD libmE16<>(SB), Y0, Y1
	VFMADD213PD libmE8<>(SB), Y1, Y0
	VPMOVSXDQ X2, Y3 // 2^k
	VPADDQ libmBIAS<>(SB), Y3, Y3
	VPSLLQ $52, Y3, Y3
	VMULPD Y3, Y0, Y0
`

// logHead is logBody up to f (the check, k and f), and logHead512 its
// AVX-512 form, in nine instructions where the translation of logHead
// takes fifteen: the check's comparisons go to an opmask, and where f1 <=
// √2/2 the merge-masked k - 1 and f1 + f1 give the bits of logHead's k -
// 1 and f1·2 (elsewhere both leave k and f1, as k - 0 and f1·1 do).
const logHead = `	VPCMPGTQ libmMINNORMM1<>(SB), Y0, Y5
	VMOVDQU libmPINF<>(SB), Y6
	VPCMPGTQ Y0, Y6, Y6
	VPAND Y5, Y6, Y5
	VMOVMSKPD Y5, AX
	CMPL AX, $15
	JNE  done
	VANDPD libmMANT<>(SB), Y0, Y2
	VORPD libmE0<>(SB), Y2, Y2 // f1
	VPSRLQ $52, Y0, Y1
	VPOR libmMAGICBITS<>(SB), Y1, Y1
	VSUBPD libmKMAGIC<>(SB), Y1, Y1 // k
	VCMPPD $2, libmHSQRT2<>(SB), Y2, Y3 // f1 <= √2/2 (CMPSD's not-less-than)
	VANDPD libmE8<>(SB), Y3, Y3
	VSUBPD Y3, Y1, Y1
	VADDPD libmE8<>(SB), Y3, Y3
	VMULPD Y3, Y2, Y2
	VSUBPD libmE8<>(SB), Y2, Y2 // f
`

const logHead512 = logCheck512 + logReduce512

// logCheck512 is logHead512's check, which log2Head512 makes first (its
// lanes of [1/2, 2] then take x, the others Frexp's mantissa).
const logCheck512 = `	VPCMPGTQ libmMINNORMM1<>(SB), Z0, K2
	VMOVDQU64 libmPINF<>(SB), Z6
	VPCMPGTQ Z0, Z6, K2, K2 // positive, normal, finite
	KMOVB K2, AX
	CMPL AX, $0xFF
	JNE  done
`

const logReduce512 = `	VANDPD libmMANT<>(SB), Z0, Z2
	VORPD libmE0<>(SB), Z2, Z2 // f1
	VPSRLQ $52, Z0, Z1
	VPORQ libmMAGICBITS<>(SB), Z1, Z1
	VSUBPD libmKMAGIC<>(SB), Z1, Z1 // k
	VCMPPD $2, libmHSQRT2<>(SB), Z2, K2 // f1 <= √2/2
	VSUBPD libmE8<>(SB), Z1, K2, Z1
	VADDPD Z2, Z2, K2, Z2
	VSUBPD libmE8<>(SB), Z2, Z2 // f
`

// log1pHead is log1pBody up to k, c and f, and log1pHead512 its AVX-512
// form: the masks on the result's dependency chain (k > 0; iu below √2's
// mantissa; the k = 0 path) stay in opmasks, where the blends, k++ (a
// merge-masked add of 1: k + 0 is k, never -0) and k = 0 (a merge-masked
// xor: +0, the bits of k AND NOT mask) read them; the check's mask logic,
// off that chain, is logHead's own lines on the masks in vector form.
const log1pHead = `	VMOVUPD Y0, Y13
	VANDPD libmABS<>(SB), Y0, Y14 // absx
	VCMPPD $14, libmMINUS1<>(SB), Y0, Y5 // x > -1 (false for NaN)
	VCMPPD $1, libmTWO53<>(SB), Y14, Y6 // absx < 2^53
	VANDPD Y6, Y5, Y5
	VCMPPD $13, libmSMALL<>(SB), Y14, Y6 // absx >= 2^-29
	VANDPD Y6, Y5, Y5
	VCMPPD $1, libmSQRT2M1<>(SB), Y14, Y7
	VCMPPD $14, libmSQRT2HALFM1<>(SB), Y0, Y6
	VANDPD Y6, Y7, Y7 // k = 0, f = x
	VADDPD libmE8<>(SB), Y0, Y1 // u
	VPSRLQ $52, Y1, Y2
	VPOR libmMAGICBITS<>(SB), Y2, Y2
	VSUBPD libmKMAGIC1023<>(SB), Y2, Y2 // k
	VSUBPD Y0, Y1, Y3
	VMOVUPD libmE8<>(SB), Y4
	VSUBPD Y3, Y4, Y3 // 1 - (u - x)
	VSUBPD libmE8<>(SB), Y1, Y4
	VSUBPD Y4, Y0, Y4 // x - (u - 1)
	VXORPD Y6, Y6, Y6
	VCMPPD $14, Y6, Y2, Y6 // k > 0
	VBLENDVPD Y6, Y3, Y4, Y3
	VDIVPD Y1, Y3, Y3 // c
	VANDPD libmMANT<>(SB), Y1, Y4 // iu
	VMOVDQU libmSQRT2MANT<>(SB), Y6
	VPCMPGTQ Y4, Y6, Y6 // iu < the mantissa of √2
` + log1pCheck + `	VMOVUPD libmE0<>(SB), Y8
	VBLENDVPD Y6, libmE8<>(SB), Y8, Y8
	VORPD Y4, Y8, Y8 // u normalised
	VANDNPD libmE8<>(SB), Y6, Y9
	VADDPD Y9, Y2, Y2 // k++
	VSUBPD libmE8<>(SB), Y8, Y8 // f
	VBLENDVPD Y7, Y0, Y8, Y8
	VANDNPD Y2, Y7, Y2
`

// log1pCheck is log1pHead's check of the lanes its branch iu == 0 takes
// (Y6: iu below √2's mantissa, Y7: the k = 0 path, Y5: the range), which
// log1pHead512 keeps in vector form too.
const log1pCheck = `	VPXOR Y9, Y9, Y9
	VPCMPEQQ Y9, Y4, Y9
	VPAND Y6, Y9, Y9 // iu == 0
	VPCMPGTQ libmMANTM4<>(SB), Y4, Y10
	VPANDN Y10, Y6, Y10 // (2^52 - iu) >> 2 == 0
	VPOR Y10, Y9, Y9
	VPANDN Y9, Y7, Y9
	VPANDN Y5, Y9, Y5
	VMOVMSKPD Y5, AX
	CMPL AX, $15
	JNE  done
`

const log1pHead512 = `	VMOVAPD Z0, Z13
	VANDPD libmABS<>(SB), Z0, Z14 // absx
	VCMPPD $14, libmMINUS1<>(SB), Z0, K3 // x > -1 (false for NaN)
	VCMPPD $1, libmTWO53<>(SB), Z14, K3, K3 // absx < 2^53
	VCMPPD $13, libmSMALL<>(SB), Z14, K3, K3 // absx >= 2^-29
	VPMOVM2Q K3, Z5
	VCMPPD $1, libmSQRT2M1<>(SB), Z14, K2
	VCMPPD $14, libmSQRT2HALFM1<>(SB), Z0, K2, K2 // k = 0, f = x
	VADDPD libmE8<>(SB), Z0, Z1 // u
	VPSRLQ $52, Z1, Z2
	VPORQ libmMAGICBITS<>(SB), Z2, Z2
	VSUBPD libmKMAGIC1023<>(SB), Z2, Z2 // k
	VSUBPD Z0, Z1, Z3
	VMOVUPD libmE8<>(SB), Z4
	VSUBPD Z3, Z4, Z3 // 1 - (u - x)
	VSUBPD libmE8<>(SB), Z1, Z4
	VSUBPD Z4, Z0, Z4 // x - (u - 1)
	VXORPD Z6, Z6, Z6
	VCMPPD $14, Z6, Z2, K3 // k > 0
	VBLENDMPD Z3, Z4, K3, Z3
	VDIVPD Z1, Z3, Z3 // c
	VANDPD libmMANT<>(SB), Z1, Z4 // iu
	VMOVDQU64 libmSQRT2MANT<>(SB), Z6
	VPCMPGTQ Z4, Z6, K3 // iu < the mantissa of √2
	VPMOVM2Q K3, Z6
	VPMOVM2Q K2, Z7
` + log1pCheck + `	VMOVUPD libmE0<>(SB), Z8
	VMOVUPD libmE8<>(SB), K3, Z8
	VORPD Z4, Z8, Z8 // u normalised
	KNOTB K3, K3
	VADDPD libmE8<>(SB), Z2, K3, Z2 // k++
	VSUBPD libmE8<>(SB), Z8, Z8 // f
	VMOVAPD Z0, K2, Z8
	VXORPD Z2, Z2, K2, Z2
`

// to512 returns an AVX2 body with the parts that have AVX-512 forms of
// their own (roundCheck32, logHead, log1pHead, log2Head, log2Tail,
// expm1Check) replaced by them, for
// interleave.
func to512(body string) string {
	r := strings.NewReplacer(
		log2Head+logHead, log2Head512+logReduce512,
		log2Tail, log2Tail512,
		expm1Check, expm1Check512,
		roundCheck32, roundCheck512,
		logHead, logHead512,
		log1pHead, log1pHead512)
	return r.Replace(body)
}

// logBody: Y0 = x in, Y0 = logF64(x) out (libm.go: math.Log's algorithm,
// $GOROOT/src/math/log_amd64.s archLog, with its polynomials' steps and
// the sum after s·(hfsq + R) fused); exits to done unless every lane is
// a positive normal finite number. Y1-Y6 are scratch.
const logBody = logHead + `	VADDPD libmE16<>(SB), Y2, Y0
	VDIVPD Y0, Y2, Y3 // s
	VMULPD Y3, Y3, Y4 // s2
	VMULPD Y4, Y4, Y5 // s4
	VMOVUPD libmL7<>(SB), Y6
	VFMADD213PD libmL5<>(SB), Y5, Y6
	VFMADD213PD libmL3<>(SB), Y5, Y6
	VFMADD213PD libmL1<>(SB), Y5, Y6
	VMULPD Y6, Y4, Y4 // t1
	VMOVUPD libmL6<>(SB), Y6
	VFMADD213PD libmL4<>(SB), Y5, Y6
	VFMADD213PD libmL2<>(SB), Y5, Y6
	VMULPD Y6, Y5, Y5 // t2
	VADDPD Y5, Y4, Y4 // R
	VMULPD libmE0<>(SB), Y2, Y0
	VMULPD Y2, Y0, Y0 // hfsq
	VADDPD Y0, Y4, Y4 // hfsq + R
	VMULPD libmLN2LO<>(SB), Y1, Y6 // k·Ln2Lo
	VFMADD213PD Y6, Y4, Y3 // s·(hfsq + R) + k·Ln2Lo
	VSUBPD Y3, Y0, Y0
	VSUBPD Y2, Y0, Y0
	VFMSUB231PD libmLN2HI<>(SB), Y1, Y0 // k·Ln2Hi - ((hfsq - that) - f)
`

// logBodyGo is math.Log itself ($GOROOT/src/math/log_amd64.s, archLog:
// each product and sum rounded), for pow's loops, which replay math.Pow.
const logBodyGo = logHead + `	VADDPD libmE16<>(SB), Y2, Y0
	VDIVPD Y0, Y2, Y3 // s
	VMULPD Y3, Y3, Y4 // s2
	VMULPD Y4, Y4, Y5 // s4
	VMULPD libmL7<>(SB), Y5, Y6
	VADDPD libmL5<>(SB), Y6, Y6
	VMULPD Y5, Y6, Y6
	VADDPD libmL3<>(SB), Y6, Y6
	VMULPD Y5, Y6, Y6
	VADDPD libmL1<>(SB), Y6, Y6
	VMULPD Y6, Y4, Y4 // t1
	VMULPD libmL6<>(SB), Y5, Y6
	VADDPD libmL4<>(SB), Y6, Y6
	VMULPD Y5, Y6, Y6
	VADDPD libmL2<>(SB), Y6, Y6
	VMULPD Y6, Y5, Y5 // t2
	VADDPD Y5, Y4, Y4 // R
	VMULPD libmE0<>(SB), Y2, Y0
	VMULPD Y2, Y0, Y0 // hfsq
	VADDPD Y0, Y4, Y4
	VMULPD Y4, Y3, Y3
	VMULPD libmLN2LO<>(SB), Y1, Y4
	VADDPD Y4, Y3, Y3
	VSUBPD Y3, Y0, Y0
	VSUBPD Y2, Y0, Y0
	VMULPD libmLN2HI<>(SB), Y1, Y1
	VSUBPD Y0, Y1, Y0
`

// trigArg: Y0 = x in; exits to done unless every |x| < 2^29 (not NaN);
// out: Y8 = sign bit of x, Y0 = z (|x| reduced by Cody-Waite), X2 = j
// (octant, rounded up to even, int32).
const trigArg = `	VANDPD libmSIGN<>(SB), Y0, Y8
	VANDPD libmABS<>(SB), Y0, Y0
	VCMPPD $1, libmTRIGMAX<>(SB), Y0, Y5 // |x| < 2^29, false for NaN
	VMOVMSKPD Y5, AX
	CMPL AX, $15
	JNE  done
	VMULPD libmFOPI<>(SB), Y0, Y1
	VCVTTPD2DQY Y1, X2 // j
	VPADDD libmONED<>(SB), X2, X2
	VPSRLD $1, X2, X2
	VPSLLD $1, X2, X2 // j rounded up to even
	VCVTDQ2PD X2, Y1 // y
	VFNMADD231PD libmPI4A<>(SB), Y1, Y0
	VFNMADD231PD libmPI4B<>(SB), Y1, Y0
	VFNMADD231PD libmPI4C<>(SB), Y1, Y0 // z
`

// trigReduce: Y0 = x in; exits to done unless every |x| < 2^29 (not
// NaN); out: Y8 = sign bit of x, Y0 = z, Y9 = zz, X2 = j (octant, even,
// int32), Y10 = sin polynomial, Y11 = cos polynomial.
const trigReduce = trigArg + `	VMULPD Y0, Y0, Y9 // zz
	VMOVUPD libmS0<>(SB), Y10
	VFMADD213PD libmS1<>(SB), Y9, Y10
	VFMADD213PD libmS2<>(SB), Y9, Y10
	VFMADD213PD libmS3<>(SB), Y9, Y10
	VFMADD213PD libmS4<>(SB), Y9, Y10
	VFMADD213PD libmS5<>(SB), Y9, Y10
	VMULPD Y9, Y0, Y3
	VFMADD213PD Y0, Y3, Y10 // z + z·zz·P
	VMOVUPD libmC0<>(SB), Y11
	VFMADD213PD libmC1<>(SB), Y9, Y11
	VFMADD213PD libmC2<>(SB), Y9, Y11
	VFMADD213PD libmC3<>(SB), Y9, Y11
	VFMADD213PD libmC4<>(SB), Y9, Y11
	VFMADD213PD libmC5<>(SB), Y9, Y11
	VMOVUPD libmE8<>(SB), Y4
	VFNMADD231PD libmE0<>(SB), Y9, Y4 // 1 - 0.5·zz
	VMULPD Y9, Y9, Y3
	VFMADD213PD Y4, Y3, Y11 // 1 - 0.5·zz + zz·zz·Q
	VPMOVSXDQ X2, Y2 // j as int64 lanes
`

// sinBody: the octants 2 and 6 take the cos polynomial (bit 1 of j), the
// sign flips for octants 4 and 6 (bit 2) and for x < 0.
const sinBody = trigReduce + `	VPSLLQ $62, Y2, Y3 // bit 1 of j to the sign position
	VBLENDVPD Y3, Y11, Y10, Y0
	VPSLLQ $61, Y2, Y3 // bit 2
	VANDPD libmSIGN<>(SB), Y3, Y3
	VXORPD Y3, Y8, Y8
	VXORPD Y8, Y0, Y0
`

// cosBody: octants 2 and 6 take the sin polynomial; the sign flips when
// bit 1 and bit 2 of j differ.
const cosBody = trigReduce + `	VPSLLQ $62, Y2, Y3
	VBLENDVPD Y3, Y10, Y11, Y0
	VPSLLQ $61, Y2, Y4
	VXORPD Y4, Y3, Y3
	VANDPD libmSIGN<>(SB), Y3, Y3
	VXORPD Y3, Y0, Y0
`

// sigmoidBody: 1 / (1 + math.Exp(-x)), x kept in Y8.
const sigmoidBody = `	VMOVUPD Y0, Y8
	VXORPD libmSIGN<>(SB), Y0, Y0
` + expBody + `	VADDPD libmE8<>(SB), Y0, Y0
	VMOVUPD libmE8<>(SB), Y1
	VDIVPD Y0, Y1, Y0
`

// siluBody: x · sigmoid(x).
const siluBody = sigmoidBody + `	VMULPD Y0, Y8, Y0
`

// tanhBody: Y0 = x in, Y0 = math.Tanh(x) out ($GOROOT/src/math/tanh.go
// tanh) for x != 0, |x| <= MAXLOG/2: both of its paths, 1 - 2/(Exp(2|x|)+1)
// with the sign of x where |x| >= 0.625, else its rational function.
const tanhBody = `	VMOVUPD Y0, Y13
	VANDPD libmABS<>(SB), Y0, Y14 // z
	VCMPPD $2, libmHALFMAXLOG<>(SB), Y14, Y5 // false for NaN
	VXORPD Y6, Y6, Y6
	VCMPPD $4, Y6, Y0, Y6 // x != 0
	VANDPD Y6, Y5, Y5
	VMOVMSKPD Y5, AX
	CMPL AX, $15
	JNE  done
	VADDPD Y14, Y14, Y0 // 2·z
` + expBody + `	VADDPD libmE8<>(SB), Y0, Y0
	VMOVUPD libmE16<>(SB), Y1
	VDIVPD Y0, Y1, Y1
	VMOVUPD libmE8<>(SB), Y0
	VSUBPD Y1, Y0, Y0
	VANDPD libmSIGN<>(SB), Y13, Y1
	VXORPD Y1, Y0, Y10 // z >= 0.625
	VMULPD Y13, Y13, Y1 // s
	VMULPD libmTP0<>(SB), Y1, Y2
	VADDPD libmTP1<>(SB), Y2, Y2
	VMULPD Y1, Y2, Y2
	VADDPD libmTP2<>(SB), Y2, Y2
	VADDPD libmTQ0<>(SB), Y1, Y3
	VMULPD Y1, Y3, Y3
	VADDPD libmTQ1<>(SB), Y3, Y3
	VMULPD Y1, Y3, Y3
	VADDPD libmTQ2<>(SB), Y3, Y3
	VMULPD Y1, Y13, Y4
	VMULPD Y2, Y4, Y4
	VDIVPD Y3, Y4, Y4
	VADDPD Y4, Y13, Y4 // z < 0.625
	VCMPPD $13, libmC0625<>(SB), Y14, Y5
	VBLENDVPD Y5, Y10, Y4, Y0
`

// log1pBody: Y0 = x in, Y0 = log1pF64(x) out (libm.go: math.Log1p's
// algorithm, $GOROOT/src/math/log1p.go log1p, with its multiplies and
// adds from P on fused), for -1 < x, 2^-29 <= |x| < 2^53, and not the inputs where it
// takes its branch iu == 0 (1+x a power of 2, or its mantissa within 3
// of 2^52). Both of its paths are computed: k = 0 and f = x where
// √2/2-1 < x < √2-1 (mask Y7), else k, c and f from u = 1+x; the result
// is that of k = 0 where the final k is 0.
const log1pBody = log1pHead + `	VMULPD libmE0<>(SB), Y8, Y9
	VMULPD Y8, Y9, Y9 // hfsq
	VADDPD libmE16<>(SB), Y8, Y10
	VDIVPD Y10, Y8, Y10 // s
	VMULPD Y10, Y10, Y11 // z
	VMOVUPD libmL7<>(SB), Y12
	VFMADD213PD libmL6<>(SB), Y11, Y12
	VFMADD213PD libmL5<>(SB), Y11, Y12
	VFMADD213PD libmL4<>(SB), Y11, Y12
	VFMADD213PD libmL3<>(SB), Y11, Y12
	VFMADD213PD libmL2<>(SB), Y11, Y12
	VFMADD213PD libmL1<>(SB), Y11, Y12
	VMULPD Y12, Y11, Y12 // R
	VADDPD Y12, Y9, Y12 // w = hfsq + R
	VMOVUPD Y9, Y1
	VFNMADD231PD Y12, Y10, Y1 // hfsq - s·w
	VSUBPD Y1, Y8, Y1 // k = 0: f - that
	VMOVUPD Y3, Y4
	VFMADD231PD libmLN2LO<>(SB), Y2, Y4 // k·Ln2Lo + c
	VFMADD231PD Y12, Y10, Y4 // s·w + that
	VSUBPD Y4, Y9, Y4
	VSUBPD Y8, Y4, Y4
	VFMSUB231PD libmLN2HI<>(SB), Y2, Y4 // k·Ln2Hi - ((hfsq - that) - f)
	VXORPD Y6, Y6, Y6
	VCMPPD $0, Y6, Y2, Y6 // k == 0
	VBLENDVPD Y6, Y1, Y4, Y0
`

// exp2Body: Y0 = x in, Y0 = exp2F64(x) out (libm.go: k = x rounded to
// nearest, halves down, f = x - k, 1 + c1·f + f²·r(f) with c1·f and 1 + c1·f carried
// exactly, times 2^k; the same operations in the same order); exits to
// done unless every |x| <= 1000 (not NaN), where 2^k and the product are
// normal numbers.
var exp2Body = `	VANDPD libmABS<>(SB), Y0, Y1
	VCMPPD $2, libmEXP2MAX<>(SB), Y1, Y5 // |x| <= 1000, false for NaN
	VMOVMSKPD Y5, AX
	CMPL AX, $15
	JNE  done
	VSUBPD libmE0<>(SB), Y0, Y1
	VROUNDPD $2, Y1, Y1 // k = ceil(x - 1/2)
	VSUBPD Y1, Y0, Y2 // f, exact
` + hornerFrom("EXC", len(exp2TaylorD)-1, 1, "Y2", "Y3") + `	VMULPD Y2, Y2, Y4 // f²
	VMULPD libmEXC0<>(SB), Y2, Y5 // p = c1·f
	VMOVUPD libmEXC0<>(SB), Y6
	VFMSUB213PD Y5, Y2, Y6 // pe = c1·f - p, exact
	VFMADD231PD libmLN2LOD<>(SB), Y2, Y6 // + ln 2's rest·f
	VFMADD231PD Y3, Y4, Y6 // t = f²·r + that
	VADDPD libmE8<>(SB), Y5, Y7 // s = 1 + p
	VMOVUPD libmE8<>(SB), Y8
	VSUBPD Y7, Y8, Y8
	VADDPD Y5, Y8, Y8 // (1 - s) + p, exact
	VADDPD Y6, Y8, Y8
	VADDPD Y8, Y7, Y3 // s + (sl + t)
	VADDPD libmAEMAGIC<>(SB), Y1, Y1 // 2^k
	VPSLLQ $52, Y1, Y1
	VMULPD Y1, Y3, Y0
`

// exp2TaylorD is libm.go's exp2Taylor: (ln 2)^n/n!, n = 1…13, correctly
// rounded (TestExp2Taylor checks them against big.Float).
var exp2TaylorD = []float64{
	0x1.62e42fefa39efp-1, 0x1.ebfbdff82c58fp-3, 0x1.c6b08d704a0c0p-5, 0x1.3b2ab6fba4e77p-7,
	0x1.5d87fe78a6731p-10, 0x1.430912f86c787p-13, 0x1.ffcbfc588b0c7p-17, 0x1.62c0223a5c824p-20,
	0x1.b5253d395e7c4p-24, 0x1.e4cf5158b8ecap-28, 0x1.e8cac7351bb25p-32, 0x1.c3bd650fc2986p-36,
	0x1.816193166d0f9p-40,
}

// atanBody: Y0 = x in, Y0 = atanF64(x) out (libm.go: math.Atan's
// algorithm, $GOROOT/src/math/atan.go atan, satan and xatan, with its
// multiplies and adds fused): a = |x| reduced to a itself up to
// 0.66, 1/a above tan(3π/8), (a-1)/(a+1) between (one division for the
// two), xatan of that, the constant of its range added, and x's sign.
// Every lane is computed so (±0 and ±Inf take the same operations as in
// Go), but NaN exits to done.
const atanBody = `	VCMPPD $0, Y0, Y0, Y5 // not NaN
	VMOVMSKPD Y5, AX
	CMPL AX, $15
	JNE  done
	VANDPD libmSIGN<>(SB), Y0, Y8
	VANDPD libmABS<>(SB), Y0, Y0 // a
	VCMPPD $14, libmTAN3PIO8<>(SB), Y0, Y6 // a > tan(3π/8)
	VCMPPD $2, libmATANSMALL<>(SB), Y0, Y7 // a <= 0.66
	VSUBPD libmE8<>(SB), Y0, Y1
	VBLENDVPD Y6, libmE8<>(SB), Y1, Y1 // 1 or a - 1
	VADDPD libmE8<>(SB), Y0, Y2
	VBLENDVPD Y6, Y0, Y2, Y2 // a or a + 1
	VDIVPD Y2, Y1, Y1
	VBLENDVPD Y7, Y0, Y1, Y1 // u
	VMULPD Y1, Y1, Y2 // z = u·u
	VMOVUPD libmAP0<>(SB), Y3
	VFMADD213PD libmAP1<>(SB), Y2, Y3
	VFMADD213PD libmAP2<>(SB), Y2, Y3
	VFMADD213PD libmAP3<>(SB), Y2, Y3
	VFMADD213PD libmAP4<>(SB), Y2, Y3 // P
	VADDPD libmAQ0<>(SB), Y2, Y4
	VFMADD213PD libmAQ1<>(SB), Y2, Y4
	VFMADD213PD libmAQ2<>(SB), Y2, Y4
	VFMADD213PD libmAQ3<>(SB), Y2, Y4
	VFMADD213PD libmAQ4<>(SB), Y2, Y4 // Q
	VMULPD Y3, Y2, Y3
	VDIVPD Y4, Y3, Y3
	VFMADD213PD Y1, Y1, Y3 // xatan(u) = u + u·(z·P/Q)
	VMOVUPD libmPIO2<>(SB), Y4
	VSUBPD Y3, Y4, Y4
	VADDPD libmMOREBITS<>(SB), Y4, Y4 // a > tan(3π/8)
	VADDPD libmPIO4<>(SB), Y3, Y5
	VADDPD libmHMOREBITS<>(SB), Y5, Y5 // between
	VBLENDVPD Y6, Y4, Y5, Y5
	VBLENDVPD Y7, Y3, Y5, Y5
	VXORPD Y8, Y5, Y0
`

// tanBody: Y0 = x in, Y0 = tanF64(x) out: math.Tan's algorithm
// ($GOROOT/src/math/tan.go tan) with sin's reduction (trigArg) for |x| <
// 2^29, its rational function (multiplies and adds fused, and for tiny
// z too, as tanF64's), -1/y in the octants with bit 1 of
// j, x's sign; and tanF64's series below 2^-12 (libm.go). Exits to done
// unless every |x| < 2^29 (not NaN).
const tanBody = `	VMOVUPD Y0, Y13
` + trigArg + `	VMULPD Y0, Y0, Y9 // zz
	VMOVUPD libmTANP0<>(SB), Y10
	VFMADD213PD libmTANP1<>(SB), Y9, Y10
	VFMADD213PD libmTANP2<>(SB), Y9, Y10
	VMULPD Y10, Y9, Y10 // zz·P
	VADDPD libmTANQ1<>(SB), Y9, Y11
	VFMADD213PD libmTANQ2<>(SB), Y9, Y11
	VFMADD213PD libmTANQ3<>(SB), Y9, Y11
	VFMADD213PD libmTANQ4<>(SB), Y9, Y11
	VDIVPD Y11, Y10, Y10
	VFMADD231PD Y10, Y0, Y0 // y = z + z·(zz·P/Q)
	VPMOVSXDQ X2, Y2 // j as int64 lanes
	VPSLLQ $62, Y2, Y3 // bit 1 of j to the sign position
	VMOVUPD libmMINUS1<>(SB), Y4
	VDIVPD Y0, Y4, Y4 // -1/y
	VBLENDVPD Y3, Y4, Y0, Y0
	VXORPD Y8, Y0, Y0
	VMULPD Y13, Y13, Y1 // tanF64's series: x2
	VMULPD libmTWO15<>(SB), Y1, Y3
	VADDPD libmTHIRD<>(SB), Y3, Y3
	VMULPD Y1, Y13, Y4
	VMULPD Y3, Y4, Y4
	VADDPD Y4, Y13, Y4
	VANDPD libmABS<>(SB), Y13, Y5
	VCMPPD $1, libmTANSMALL<>(SB), Y5, Y5 // |x| < 2^-12
	VBLENDVPD Y5, Y4, Y0, Y0
`

// asinTaylorD holds asin's Taylor coefficients (2k)!/(4^k·(k!)²·(2k+1))
// for k = 1…24, correctly rounded (big.Rat): libm.go's asinTaylor, whose
// bits the loops must have (TestLibmVector compares them).
var asinTaylorD = func() []float64 {
	c := make([]float64, 24)
	for n := range c {
		k := int64(n + 1)
		num := new(big.Int).MulRange(k+1, 2*k) // (2k)!/k!
		den := new(big.Int).MulRange(1, k)     // k!
		den.Mul(den, new(big.Int).Lsh(big.NewInt(2*k+1), uint(2*k)))
		c[n], _ = new(big.Rat).SetFrac(num, den).Float64()
	}
	return c
}()

func init() {
	for n, v := range asinTaylorD {
		consts = append(consts, struct {
			name string
			v    float64
		}{fmt.Sprintf("ASD%d", n), v})
	}
	for n, v := range exp2TaylorD {
		consts = append(consts, struct {
			name string
			v    float64
		}{fmt.Sprintf("EXC%d", n), v})
	}
}

// horner returns the lines that evaluate Σ c_k·x^k, k = 0…top, by
// Horner's rule into acc (VMOVUPD and FMAs, one rounding each), for the
// constants libm{name}0…libm{name}{top} and x in register x.
func horner(name string, top int, x, acc string) string { return hornerFrom(name, top, 0, x, acc) }

// hornerFrom is horner for Σ c_k·x^(k-lo), k = lo…top.
func hornerFrom(name string, top, lo int, x, acc string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "\tVMOVUPD libm%s%d<>(SB), %s\n", name, top, acc)
	for k := top - 1; k >= lo; k-- {
		fmt.Fprintf(&b, "\tVFMADD213PD libm%s%d<>(SB), %s, %s\n", name, k, x, acc)
	}
	return b.String()
}

// asinCore: Y0 = x in; out: Y4 + Y5 = asin t (hi, lo) as asinParts
// computes it (libm.go: the same operations in the same order), Y7 the
// far lanes (|x| > 1/2), Y12 x's sign, Y1 = |x|. It exits to done unless
// |x| <= 1 in every lane (NaN too). The square root and √u's rest are
// skipped where no lane of the group is far.
var asinCore = `	VANDPD libmABS<>(SB), Y0, Y1 // a = |x|
	VCMPPD $2, libmE8<>(SB), Y1, Y5 // a <= 1 (false for NaN)
	VMOVMSKPD Y5, AX
	CMPL AX, $15
	JNE  done
	VANDPD libmSIGN<>(SB), Y0, Y12
	VCMPPD $14, libmE0<>(SB), Y1, Y7 // far: a > 1/2
	VMULPD Y1, Y1, Y2 // u = a·a
	VMOVAPD Y1, Y3 // t = a
	VXORPD Y6, Y6, Y6 // tl = 0
	SKIPNONE Y7, asinnear
	VMOVUPD libmE8<>(SB), Y8
	VSUBPD Y1, Y8, Y8
	VMULPD libmE0<>(SB), Y8, Y8 // (1 - a)/2, exact
	VBLENDVPD Y7, Y8, Y2, Y2 // u
	VSQRTPD Y2, Y8
	VBLENDVPD Y7, Y8, Y3, Y3 // t = √u
	VMOVAPD Y3, Y8
	VFNMADD213PD Y2, Y3, Y8 // u - t², exact
	VADDPD Y3, Y3, Y9
	VMAXPD libmRMIN<>(SB), Y9, Y9 // 2t, or 2^-1000 for t = 0
	VDIVPD Y9, Y8, Y8
	VANDPD Y7, Y8, Y6 // tl where far
asinnear:
` + horner("ASD", len(asinTaylorD)-1, "Y2", "Y8") + `	VMULPD Y2, Y3, Y9 // t·u
	VMULPD Y8, Y9, Y9 // corr
	VADDPD Y9, Y3, Y4 // hi = t + corr
	VSUBPD Y3, Y4, Y10
	VSUBPD Y10, Y9, Y5 // corr - (hi - t)
	VADDPD Y6, Y5, Y5 // lo
`

// asinBody: Y0 = x in, Y0 = asinF64(x) out: hi up to 1/2, π/2 - 2·(hi
// + lo) beyond (the first difference by TwoSum, as twoSum), x's sign.
var asinBody = asinCore + `	SKIPNONE Y7, asinsign
	VADDPD Y4, Y4, Y8 // 2·hi
	VMOVUPD libmPIO2<>(SB), Y9
	VSUBPD Y8, Y9, Y10 // r = π/2 - 2·hi
	VSUBPD Y9, Y10, Y11 // z = r - π/2
	VSUBPD Y11, Y10, Y13
	VSUBPD Y13, Y9, Y13 // π/2 - (r - z)
	VADDPD Y11, Y8, Y14
	VSUBPD Y14, Y13, Y13 // e = that + (-2·hi - z)
	VADDPD Y5, Y5, Y14
	VMOVUPD libmPIO2LO<>(SB), Y15
	VSUBPD Y14, Y15, Y15 // π/2's rest - 2·lo
	VADDPD Y15, Y13, Y13
	VADDPD Y13, Y10, Y10
	VBLENDVPD Y7, Y10, Y4, Y4 // far
asinsign:
	VORPD Y12, Y4, Y0
`

// acosBody: Y0 = x in, Y0 = acosF64(x) out: π/2 - (±hi ± lo) up to 1/2,
// 2·(hi + lo) beyond for x > 0, π - 2·(hi + lo) for x < 0 (TwoSum as
// in asinBody).
var acosBody = asinCore + `	VXORPD Y12, Y4, Y8 // ±hi
	VXORPD Y12, Y5, Y9 // ±lo
	VMOVUPD libmPIO2<>(SB), Y10
	VSUBPD Y8, Y10, Y11 // r = π/2 - ±hi
	VSUBPD Y10, Y11, Y13 // z
	VSUBPD Y13, Y11, Y14
	VSUBPD Y14, Y10, Y14 // π/2 - (r - z)
	VADDPD Y13, Y8, Y13
	VSUBPD Y13, Y14, Y14 // e
	VMOVUPD libmPIO2LO<>(SB), Y13
	VSUBPD Y9, Y13, Y13
	VADDPD Y13, Y14, Y14
	VADDPD Y14, Y11, Y0
	SKIPNONE Y7, acosnear
	VADDPD Y5, Y4, Y8
	VADDPD Y8, Y8, Y8 // 2·(hi + lo): x > 0
	VADDPD Y4, Y4, Y9 // 2·hi
	VMOVUPD libmPI<>(SB), Y10
	VSUBPD Y9, Y10, Y11 // r = π - 2·hi
	VSUBPD Y10, Y11, Y13 // z
	VSUBPD Y13, Y11, Y14
	VSUBPD Y14, Y10, Y14
	VADDPD Y13, Y9, Y13
	VSUBPD Y13, Y14, Y14 // e
	VADDPD Y5, Y5, Y13
	VMOVUPD libmPILO<>(SB), Y15
	VSUBPD Y13, Y15, Y15
	VADDPD Y15, Y14, Y14
	VADDPD Y14, Y11, Y11 // x < 0
	VBLENDVPD Y12, Y11, Y8, Y8
	VBLENDVPD Y7, Y8, Y0, Y0
acosnear:
`

// atan2Body: Y0 = y, Y12 = x in, Y0 = atan2F64(y, x) out (libm.go:
// math.Atan2's algorithm, $GOROOT/src/math/atan2.go atan2, on atanF64: q = Atan(y/x), and where x < 0, q +
// Pi for q <= 0 and q - Pi above); exits to done unless every y and x is
// finite and not zero (its special cases).
const atan2Body = `	VANDPD libmABS<>(SB), Y0, Y1
	VANDPD libmABS<>(SB), Y12, Y2
	VCMPPD $1, libmPINF<>(SB), Y1, Y5 // |y| < Inf (false for NaN)
	VCMPPD $1, libmPINF<>(SB), Y2, Y6
	VANDPD Y6, Y5, Y5
	VXORPD Y3, Y3, Y3
	VCMPPD $14, Y3, Y1, Y6 // |y| > 0
	VANDPD Y6, Y5, Y5
	VCMPPD $14, Y3, Y2, Y6 // |x| > 0
	VANDPD Y6, Y5, Y5
	VMOVMSKPD Y5, AX
	CMPL AX, $15
	JNE  done
	VDIVPD Y12, Y0, Y0 // y/x
` + atanBody + `	VXORPD Y1, Y1, Y1
	VCMPPD $2, Y1, Y0, Y1 // q <= 0
	VADDPD libmPI<>(SB), Y0, Y2
	VSUBPD libmPI<>(SB), Y0, Y3
	VBLENDVPD Y1, Y2, Y3, Y2
	VBLENDVPD Y12, Y2, Y0, Y0 // x < 0
`

// pow15Body: Y0 = x in (a float32 value), Y0 = x·√x out, close enough
// to powF64(x, 1.5) (the correctly rounded power) to round to the same
// float32. x·√x is within 1.5
// ULP of x^1.5 (two roundings), so where its bits below float32's 24
// lie more than 2^10 float64 ULP from the float32 rounding midpoint
// (bit 28 of the 29 cut off), both round to the float32 that x·√x
// rounds to; a lane nearer the midpoint stops the loop, as do x < 2^-84
// (a result below float32's normal range, or x <= 0, or NaN) and +Inf.
// Every float32 input is checked by TestPow15F32Exhaustive; about one
// lane in 2^18 is left to the scalar code.
const pow15Body = `	VCMPPD $0x1D, libmP15MIN<>(SB), Y0, Y5 // x >= 2^-84 (GE_OQ: false for NaN)
	VCMPPD $1, libmPINF<>(SB), Y0, Y6 // x < +Inf
	VANDPD Y5, Y6, Y5
	VMOVMSKPD Y5, AX
	CMPL AX, $15
	JNE  done
	VSQRTPD Y0, Y1
	VMULPD Y1, Y0, Y0
` + roundCheck32

// pow15Body512 is pow15Body for the AVX-512 loop, without the square
// root: x·√x as x²·(1/√x), x² exact (48 bits for a float32 x) and 1/√x
// by rsqrtBody (within 2^-52, with VRSQRT14PD and four fused steps), so
// within 2^-51 of x^1.5 after the product's rounding: far inside the
// rounding check's 2^10 float64 ULP. VSQRTPD of eight lanes occupies
// the core's one square-root unit for about sixteen cycles: x ** 1.5 of
// 10^4 float32 took 13.7 µs with it.
const pow15Body512 = `	VCMPPD $0x1D, libmP15MIN<>(SB), Z0, K2 // x >= 2^-84 (GE_OQ: false for NaN)
	VCMPPD $1, libmPINF<>(SB), Z0, K2, K2 // x < +Inf
	KMOVB K2, AX
	CMPL AX, $0xFF
	JNE  done
	VMULPD Z0, Z0, Z10 // x², exact
` + rsqrtBody + `	VMULPD Z10, Z0, Z0
` + roundCheck512

// pow15dBody: Y0 = x in, Y0 = powF64(x, 1.5) out, for x in [2^-600,
// 2^600]: x·√x as a double-double, rounded once. √x = sh + sl, sh the
// rounded root, sl = (x - sh²)/(2·sh) (x - sh² exact, an FMA); p = x·sh
// and its exact rest pe (an FMA), lo = pe + x·sl (an FMA) within 2^-103
// of its value relative to p, then p + lo. A lane where lo ± |p|·2^-96
// rounds with p to two values (within 2^-96 of a rounding midpoint:
// x near 1, or about one in 2^42) stops the loop, as do x outside the
// range (and NaN); powF64 then decides (see ddRound). Every other lane
// is the correctly rounded power, which powF64 gives too.
var pow15dBody = `	VCMPPD $0x1D, libmP15DMIN<>(SB), Y0, Y5 // x >= 2^-600 (GE_OQ: false for NaN)
	VCMPPD $2, libmP15DMAX<>(SB), Y0, Y6 // x <= 2^600
` + sqrtDD + `	VMULPD Y1, Y0, Y4 // p = x·sh
	VMOVAPD Y1, Y5
	VFMSUB213PD Y4, Y0, Y5 // pe = x·sh - p, exact
	VFMADD231PD Y2, Y0, Y5 // lo = pe + x·sl
` + ddRoundCheck

// powmhBody: Y0 = x in, Y0 = powF64(x, -0.5) out, for x in [2^-1000,
// 2^1000]: 1/(sh + sl) with √x = sh + sl as in pow15dBody; q = 1/sh, r =
// 1 - q·sh (exact, an FMA), and 1/(sh + sl) = q·(1 + r - q·sl) within
// 2^-104 relative (the terms left out are products of two of r and
// sl/sh, each below 2^-53), lo = q·(r - q·sl), then q + lo, checked by
// ddRoundCheck.
var powmhBody = `	VCMPPD $0x1D, libmRMIN<>(SB), Y0, Y5 // x >= 2^-1000 (GE_OQ: false for NaN)
	VCMPPD $2, libmRMAX<>(SB), Y0, Y6 // x <= 2^1000
` + sqrtDD + `	VMOVUPD libmE8<>(SB), Y4
	VDIVPD Y1, Y4, Y4 // q = 1/sh
	VMOVAPD Y1, Y5
	VFNMADD213PD libmE8<>(SB), Y4, Y5 // r = 1 - q·sh, exact
	VFNMADD231PD Y2, Y4, Y5 // r - q·sl
	VMULPD Y4, Y5, Y5 // lo
` + ddRoundCheck

// sqrtDD ends the range checks of pow15dBody and powmhBody (the lanes
// of Y5 and Y6 all set) and takes √x as a double-double: Y1 = sh, the
// rounded root of Y0 = x, and Y2 = sl = (x - sh²)/(2·sh), x - sh² exact
// (an FMA); Y3 is scratch.
const sqrtDD = `	VANDPD Y5, Y6, Y5
	VMOVMSKPD Y5, AX
	CMPL AX, $15
	JNE  done
	VSQRTPD Y0, Y1 // sh
	VMOVAPD Y1, Y2
	VFNMADD213PD Y0, Y1, Y2 // x - sh², exact
	VADDPD Y1, Y1, Y3
	VDIVPD Y3, Y2, Y2 // sl
`

// ddRoundCheck: Y4 = p, Y5 = lo in, Y0 = p + lo out, where p + lo is
// within |p|·2^-96 of the exact value; exits to done unless, in every
// lane, p + (lo + |p|·2^-96) and p + (lo - |p|·2^-96) round to p + lo
// (ddRound's test). Y6-Y8 are scratch.
const ddRoundCheck = `	VANDPD libmABS<>(SB), Y4, Y6
	VMULPD libmTWOM96<>(SB), Y6, Y6 // e
	VADDPD Y5, Y4, Y0 // p + lo
	VADDPD Y6, Y5, Y7
	VADDPD Y7, Y4, Y7 // p + (lo + e)
	VSUBPD Y6, Y5, Y8
	VADDPD Y8, Y4, Y8 // p + (lo - e)
	VCMPPD $0, Y0, Y7, Y7
	VCMPPD $0, Y0, Y8, Y8
	VANDPD Y7, Y8, Y7
	VMOVMSKPD Y7, AX
	CMPL AX, $15
	JNE  done
`

// powhBody: Y0 = x, Y12 = y in, Y0 = powF64(x, y) out, for x in
// [2^-60, 2^60] and y = n + 1/2, |y| <= 14.5: x^|n| as a double-double
// by four rounds of squarings (m = |n| <= 15, a bit a round), √x = sh +
// sl as in pow15dBody, then their product (n >= 0) or √x/x^|n|: q =
// sh/rh and lo = (sh - q·rh + sl - q·rl)/rh (powHalf's forms), checked
// by ddRoundCheck. Each double-double product or square is within
// 2^-104 of its value (the cross terms' roundings, bl·rl left out), so
// seven squarings and products, the root and the last step stay within
// 2^-100, inside ddRoundCheck's 2^-96.
var powhBody = `	VMOVUPD Y0, Y13
	VCMPPD $13, libmPHXMIN<>(SB), Y0, Y5 // x >= 2^-60 (false for NaN)
	VCMPPD $2, libmPHXMAX<>(SB), Y0, Y6 // x <= 2^60
	VANDPD Y6, Y5, Y5
	VANDPD libmABS<>(SB), Y12, Y14
	VCMPPD $2, libmPHYMAX<>(SB), Y14, Y6 // |y| <= 14.5
	VANDPD Y6, Y5, Y5
	VROUNDPD $3, Y14, Y15 // trunc(|y|)
	VSUBPD Y15, Y14, Y6
	VCMPPD $0, libmE0<>(SB), Y6, Y6 // |y| - trunc(|y|) = 1/2
	VANDPD Y6, Y5, Y5
	VMOVMSKPD Y5, AX
	CMPL AX, $15
	JNE  done
	VXORPD Y6, Y6, Y6
	VCMPPD $1, Y6, Y12, Y6 // y < 0
	VANDPD libmE8<>(SB), Y6, Y6
	VADDPD Y6, Y15, Y15 // m = |n|
	VCVTTPD2DQY Y15, X11
	VPMOVSXDQ X11, Y11 // m as int64 lanes
	VSQRTPD Y13, Y14 // sh
	VMOVAPD Y14, Y15
	VFNMADD213PD Y13, Y14, Y15 // x - sh², exact
	VADDPD Y14, Y14, Y3
	VDIVPD Y3, Y15, Y15 // sl
	VMOVUPD libmE8<>(SB), Y9 // rh
	VXORPD Y10, Y10, Y10 // rl
	VMOVAPD Y13, Y7 // bh
	VXORPD Y8, Y8, Y8 // bl
` + powhRound(63) + powhSquare + powhRound(62) + powhSquare + powhRound(61) + powhSquare + powhRound(60) + `	VMULPD Y14, Y9, Y4 // p = rh·sh
	VMOVAPD Y9, Y5
	VFMSUB213PD Y4, Y14, Y5 // rh·sh - p, exact
	VFMADD231PD Y15, Y9, Y5
	VFMADD231PD Y14, Y10, Y5 // lo = that + rh·sl + rl·sh
	SKIPNONE Y12, powhpos
	VDIVPD Y9, Y14, Y0 // q = sh/rh
	VMOVAPD Y0, Y1
	VFNMADD213PD Y14, Y9, Y1 // sh - q·rh, exact
	VADDPD Y15, Y1, Y1
	VFNMADD231PD Y10, Y0, Y1
	VDIVPD Y9, Y1, Y1 // (sh - q·rh + sl - q·rl)/rh
	VBLENDVPD Y12, Y0, Y4, Y4 // y < 0
	VBLENDVPD Y12, Y1, Y5, Y5
powhpos:
` + ddRoundCheck

// powhRound: R = R·B where bit 63-shift of m is set (R = Y9 + Y10, B =
// Y7 + Y8, m in Y11); Y0-Y3 and Y5 are scratch.
func powhRound(shift int) string {
	return fmt.Sprintf(`	VPSLLQ $%d, Y11, Y5 // the next bit of m to the sign
	VMULPD Y7, Y9, Y0 // p = rh·bh
	VMOVAPD Y9, Y1
	VFMSUB213PD Y0, Y7, Y1 // rh·bh - p, exact
	VFMADD231PD Y8, Y9, Y1
	VFMADD231PD Y7, Y10, Y1 // e = that + rh·bl + rl·bh
	VADDPD Y1, Y0, Y2 // p + e
	VSUBPD Y0, Y2, Y3
	VSUBPD Y3, Y1, Y3 // its rest
	VBLENDVPD Y5, Y2, Y9, Y9
	VBLENDVPD Y5, Y3, Y10, Y10
`, shift)
}

// powhSquare: B = B², a double-double (B = Y7 + Y8); Y0-Y2 are scratch.
const powhSquare = `	VMULPD Y7, Y7, Y0 // p = bh²
	VMOVAPD Y7, Y1
	VFMSUB213PD Y0, Y7, Y1 // bh² - p, exact
	VADDPD Y7, Y7, Y2
	VFMADD231PD Y8, Y2, Y1 // e = that + 2·bh·bl
	VADDPD Y1, Y0, Y7
	VSUBPD Y0, Y7, Y2
	VSUBPD Y2, Y1, Y8
`

// roundCheck32: Y0 = a float64 result within 2^9 float64 ULP of the
// scalar code's (both close to the exact value); exits to done unless,
// in every lane, its bits below float32's 24 lie more than 2^10 ULP from
// the float32 rounding midpoint (bit 28 of the 29 cut off): then the
// scalar result rounds to the same float32. About one lane in 2^18 is
// nearer. Y2, Y3 are scratch. The result must be a normal float32 or
// overflow (a subnormal float32 rounds elsewhere).
const roundCheck32 = `	VPAND libmLOW29<>(SB), Y0, Y2
	VPSUBQ libmHALF29<>(SB), Y2, Y2
	VPADDQ libmZIVT<>(SB), Y2, Y2 // in [0, 2^11) near the midpoint
	VPSRLQ $11, Y2, Y2
	VPXOR Y3, Y3, Y3
	VPCMPGTQ Y3, Y2, Y2 // far from it
	VMOVMSKPD Y2, AX
	CMPL AX, $15
	JNE  done
`

// expm1r32Body: float32 expm1 as Exp(x) - 1 (expBody, within 1 float64
// ULP of e^x), where |x| >= 2^-7: the subtraction's result is then
// within 2^8 ULP of e^x - 1 (the error of e^x, relative to e^x - 1,
// grows as 1/|x|), and roundCheck32 decides where it rounds as
// math.Expm1 does; smaller |x| stops the loop (the exact expm1 loop
// takes those groups: see chained). Checked on every float32 input by
// TestLibmF32Exhaustive.
const expm1r32Body = `	VANDPD libmABS<>(SB), Y0, Y1
	VCMPPD $0x1D, libmEXPM1RMIN<>(SB), Y1, Y5 // |x| >= 2^-7 (false for NaN)
	VMOVMSKPD Y5, AX
	CMPL AX, $15
	JNE  done
` + expBody + `	VSUBPD libmE8<>(SB), Y0, Y0
` + roundCheck32

// asinhr32Body, acoshr32Body and atanhr32Body: float32 arcsinh,
// arccosh and arctanh through logBody, as log(|x| + √(x² + 1)) with x's
// sign, log(x + √(x² - 1)) and ½·log((1 + |x|)/(1 - |x|)) with x's sign:
// x² is exact for a float32 x, and where |x| >= 1/8 (asinh, atanh) or
// x >= 1 + 2^-15 (acosh) the roundings of the argument move the result by
// at most 2^6 float64 ULP. Below 1/8, asinh and atanh take |x|·p(x²),
// their Taylor series to x^17 (the next term is below 2^-54 of the sum):
// both forms are computed and each lane's taken. roundCheck32 then
// decides where the result rounds as asinhF64, acoshF64 and atanhF64 do.
// Other lanes (|x| < 2^-126, whose results are not normal float32
// values; x < 1 + 2^-15 for acosh; NaN, infinities) stop the loop: the
// function's own loop takes those groups (see chained). Checked on every
// float32 input by TestLibmF32Exhaustive.
var asinhr32Body = `	VANDPD libmABS<>(SB), Y0, Y1
	VANDPD libmSIGN<>(SB), Y0, Y9
	VCMPPD $0x1D, libmMINF32<>(SB), Y1, Y5 // |x| >= 2^-126 (false for NaN)
	VMOVMSKPD Y5, AX
	CMPL AX, $15
	JNE  done
` + taylorSmall("ASH") + `	VMULPD Y1, Y1, Y2
	VADDPD libmE8<>(SB), Y2, Y2
	VSQRTPD Y2, Y2
	VADDPD Y2, Y1, Y0
` + logBody + `	VBLENDVPD Y12, Y11, Y0, Y0
	VORPD Y9, Y0, Y0
` + roundCheck32

const acoshr32Body = `	VCMPPD $0x1D, libmACOSHRMIN<>(SB), Y0, Y5 // x >= 1 + 2^-15 (false for NaN)
	VMOVMSKPD Y5, AX
	CMPL AX, $15
	JNE  done
	VMULPD Y0, Y0, Y2
	VSUBPD libmE8<>(SB), Y2, Y2
	VSQRTPD Y2, Y2
	VADDPD Y2, Y0, Y0
` + logBody + roundCheck32

var atanhr32Body = `	VANDPD libmABS<>(SB), Y0, Y1
	VANDPD libmSIGN<>(SB), Y0, Y9
	VCMPPD $0x1D, libmMINF32<>(SB), Y1, Y5 // |x| >= 2^-126 (false for NaN)
	VCMPPD $1, libmE8<>(SB), Y1, Y6 // |x| < 1
	VANDPD Y6, Y5, Y5
	VMOVMSKPD Y5, AX
	CMPL AX, $15
	JNE  done
` + taylorSmall("ATH") + `	VADDPD libmE8<>(SB), Y1, Y2 // exact
	VMOVUPD libmE8<>(SB), Y3
	VSUBPD Y1, Y3, Y3 // exact
	VDIVPD Y3, Y2, Y0
` + logBody + `	VMULPD libmE0<>(SB), Y0, Y0
	VBLENDVPD Y12, Y11, Y0, Y0
	VORPD Y9, Y0, Y0
` + roundCheck32

// taylorSmall: Y1 = |x| in; out: Y12 = |x| < 1/8, and Y11 = |x|·p(x²),
// p the polynomial of the constants NAME0..NAME8 (Horner), computed only
// where a lane of the group has |x| < 1/8 (the lanes that take it).
func taylorSmall(name string) string {
	var b strings.Builder
	b.WriteString("\tVCMPPD $1, libmEIGHTH<>(SB), Y1, Y12 // |x| < 1/8\n")
	b.WriteString("\tSKIPNONE Y12, nosmall\n")
	b.WriteString("\tVMULPD Y1, Y1, Y10\n")
	fmt.Fprintf(&b, "\tVMOVUPD libm%s8<>(SB), Y11\n", name)
	for k := 7; k >= 0; k-- {
		fmt.Fprintf(&b, "\tVFMADD213PD libm%s%d<>(SB), Y10, Y11\n", name, k)
	}
	b.WriteString("\tVMULPD Y1, Y11, Y11\n")
	b.WriteString("nosmall:\n")
	return b.String()
}

// log2r32Body and log1pr32Body: float32 log2 and log1p through logBody
// (math.Log, within 1 float64 ULP): Log(x)·(1/Ln2), and Log(1 + x) where
// 1 + x is exact (|x| >= 2^-29 for a float32 x; smaller |x| stops the
// loop), each within 2 float64 ULP of the exact value as log2F64 and
// log1pF64 are, so roundCheck32 decides where they round to the same
// float32 (checked on every float32 input by TestLibmF32Exhaustive).
// Log1p's reduction makes its own loop three times as long as log's.
const log2r32Body = logBody + `	VMULPD libmINVLN2X<>(SB), Y0, Y0
` + roundCheck32

const log1pr32Body = `	VANDPD libmABS<>(SB), Y0, Y1
	VCMPPD $13, libmSMALL<>(SB), Y1, Y5 // |x| >= 2^-29 (false for NaN)
	VMOVMSKPD Y5, AX
	CMPL AX, $15
	JNE  done
	VADDPD libmE8<>(SB), Y0, Y0
` + logBody + roundCheck32

// pow4Body and powm2Body: Y0 = x in (a float32 value), Y0 = (x·x)·(x·x)
// or 1/(x·x) out, powF64's results for float32 x (see constPowKernel:
// x·x is exact); NaN, whose payload powF64 does not keep, stops the loop.
const pow4Body = notNaN + `	VMULPD Y0, Y0, Y1
	VMULPD Y1, Y1, Y0
`

const powm2Body = notNaN + `	VMULPD Y0, Y0, Y1
	VMOVUPD libmE8<>(SB), Y0
	VDIVPD Y1, Y0, Y0
`

// notNaN exits to done unless no lane of Y0 is NaN.
const notNaN = `	VCMPPD $0, Y0, Y0, Y5 // x == x
	VMOVMSKPD Y5, AX
	CMPL AX, $15
	JNE  done
`

// recipBody: Y0 = x in, Y0 = powF64(x, -1) out: q = 1/x, then q +
// fma(-q, x, 1)/x (the exact remainder r, divided); lanes outside
// [2^-1000, 2^1000] in magnitude (zeros, infinities, NaN) stop the loop.
// The second division is skipped where no lane needs it: 1/x = q + r/x,
// and r·q (rounded) is within 2^-51 of r/x, so where |r·q| < (1 -
// 2^-40)·h, h half q's ULP, the division rounds below h and q + r/x
// rounds to q (q's neighbours are an ULP away on both sides unless q is a
// power of two, which it is only for x one, and then r is 0). h is 2^(E -
// 53) for q's exponent E, made from q's exponent bits, which stays normal
// for |x| <= 2^900 (the test's range).
const recipBody = `	VANDPD libmABS<>(SB), Y0, Y1
	VCMPPD $0x1D, libmRMIN<>(SB), Y1, Y5 // |x| >= 2^-1000 (false for NaN)
	VCMPPD $2, libmRMAX<>(SB), Y1, Y6 // |x| <= 2^1000
	VANDPD Y5, Y6, Y5
	VMOVMSKPD Y5, AX
	CMPL AX, $15
	JNE  done
	VCMPPD $2, libmRFAST<>(SB), Y1, Y7 // |x| <= 2^900
	VMOVUPD libmE8<>(SB), Y1
	VDIVPD Y0, Y1, Y2 // q
	VMOVAPD Y2, Y1
	VFNMADD213PD libmE8<>(SB), Y0, Y1 // r = 1 - x·q, exact
	VMULPD Y2, Y1, Y3 // r·q
	VANDPD libmABS<>(SB), Y3, Y3
	VANDPD libmPINF<>(SB), Y2, Y4 // 2^E
	VPSUBQ libmEXP53<>(SB), Y4, Y4 // h = 2^(E-53)
	VMULPD libmONEM40<>(SB), Y4, Y4
	VCMPPD $1, Y4, Y3, Y4 // |r·q| < (1 - 2^-40)·h
	VANDPD Y7, Y4, Y4
	VPCMPEQQ Y5, Y5, Y5
	VXORPD Y5, Y4, Y4 // the lanes that need r/x
	VMOVAPD Y2, Y8
	SKIPNONE Y4, recipq
	VDIVPD Y0, Y1, Y1
	VADDPD Y1, Y2, Y8
recipq:
	VMOVAPD Y8, Y0
`

// log10Body: Y0 = x in, Y0 = log10F64(x) out: math.Log10 is Log(x) ·
// (1/Ln10) ($GOROOT/src/math/log10.go); logBody's check leaves subnormal
// x (which log10F64 scales) to the scalar code.
const log10Body = logBody + `	VMULPD libmINVLN10<>(SB), Y0, Y0
`

// coshBody: Y0 = x in, Y0 = coshF64(x) out: math.Cosh ($GOROOT/src/math/sinh.go
// cosh: e = Exp(|x|), e·0.5 above 21, else (e + 1/e)·0.5) for |x| <= 709
// (beyond, coshF64's own formula: exits to done, as NaN does).
const coshBody = `	VANDPD libmABS<>(SB), Y0, Y0
	VCMPPD $2, libmSINHMAX<>(SB), Y0, Y5 // |x| <= 709 (false for NaN)
	VMOVMSKPD Y5, AX
	CMPL AX, $15
	JNE  done
	VMOVUPD Y0, Y13
` + expBody + `	VMOVUPD libmE8<>(SB), Y1
	VDIVPD Y0, Y1, Y1
	VADDPD Y1, Y0, Y1
	VMULPD libmE0<>(SB), Y1, Y1 // (e + 1/e)·0.5
	VMULPD libmE0<>(SB), Y0, Y0 // e·0.5
	VCMPPD $14, libmTWENTYONE<>(SB), Y13, Y5 // |x| > 21
	VBLENDVPD Y5, Y0, Y1, Y0
`

// sinhBody: Y0 = x in, Y0 = sinhF64(x) out: math.Sinh ($GOROOT/src/math/sinh.go
// sinh, Go code, on a = |x| with x's sign: Exp(a)·0.5 above 21, (e -
// 1/e)·0.5 above 1/2, its rational function up to 1/2, skipped when no
// lane of the group takes it) for |x| <= 709
// (beyond, sinhF64's own formula: exits to done, as NaN does). For x =
// -0 Go takes the rational function on -0 itself, which gives -0 as
// well.
const sinhBody = `	VANDPD libmSIGN<>(SB), Y0, Y12
	VANDPD libmABS<>(SB), Y0, Y0
	VCMPPD $2, libmSINHMAX<>(SB), Y0, Y5 // |x| <= 709 (false for NaN)
	VMOVMSKPD Y5, AX
	CMPL AX, $15
	JNE  done
	VMOVUPD Y0, Y13
` + expBody + `	VMOVUPD libmE8<>(SB), Y1
	VDIVPD Y0, Y1, Y1
	VSUBPD Y1, Y0, Y1
	VMULPD libmE0<>(SB), Y1, Y1 // (e - 1/e)·0.5
	VMULPD libmE0<>(SB), Y0, Y0 // e·0.5
	VCMPPD $14, libmTWENTYONE<>(SB), Y13, Y5 // a > 21
	VBLENDVPD Y5, Y0, Y1, Y0
	VCMPPD $2, libmE0<>(SB), Y13, Y5 // a <= 1/2
	SKIPNONE Y5, nosinhpoly
	VMULPD Y13, Y13, Y1 // sq
	VMULPD libmSP3<>(SB), Y1, Y2
	VADDPD libmSP2<>(SB), Y2, Y2
	VMULPD Y1, Y2, Y2
	VADDPD libmSP1<>(SB), Y2, Y2
	VMULPD Y1, Y2, Y2
	VADDPD libmSP0<>(SB), Y2, Y2
	VMULPD Y13, Y2, Y2
	VADDPD libmSQ2<>(SB), Y1, Y3
	VMULPD Y1, Y3, Y3
	VADDPD libmSQ1<>(SB), Y3, Y3
	VMULPD Y1, Y3, Y3
	VADDPD libmSQ0<>(SB), Y3, Y3
	VDIVPD Y3, Y2, Y2
	VBLENDVPD Y5, Y2, Y0, Y0
nosinhpoly:
	VXORPD Y12, Y0, Y0
`

// atanhBody: Y0 = x in, Y0 = atanhF64(x) out (libm.go: math.Atanh's,
// $GOROOT/src/math/atanh.go atanh, with log1pF64), on a = |x| with x's
// sign: 0.5·Log1p(2a + 2a·a/(1-a)) below 1/2, 0.5·Log1p(2a/(1-a)) from
// 1/2) for 2^-28 <= |x| < 1 (else, NaN too, exits to done), by log1pBody
// (which keeps Y15); the division of a path that no lane of the group
// takes is skipped.
const atanhBody = `	VANDPD libmSIGN<>(SB), Y0, Y15
	VANDPD libmABS<>(SB), Y0, Y0
	VCMPPD $1, libmE8<>(SB), Y0, Y5 // a < 1 (false for NaN)
	VCMPPD $13, libmTINY28<>(SB), Y0, Y6 // a >= 2^-28
	VANDPD Y6, Y5, Y5
	VMOVMSKPD Y5, AX
	CMPL AX, $15
	JNE  done
	VADDPD Y0, Y0, Y1 // 2a
	VMOVUPD libmE8<>(SB), Y2
	VSUBPD Y0, Y2, Y2 // 1 - a
	VCMPPD $1, libmE0<>(SB), Y0, Y5 // a < 1/2
	SKIPNONE Y5, atanhbig
	VMULPD Y0, Y1, Y3
	VDIVPD Y2, Y3, Y3
	VADDPD Y3, Y1, Y3 // 2a + 2a·a/(1-a)
atanhbig:
	VCMPPD $13, libmE0<>(SB), Y0, Y6 // a >= 1/2
	SKIPNONE Y6, atanhsmall
	VDIVPD Y2, Y1, Y1 // 2a/(1-a)
atanhsmall:
	VBLENDVPD Y5, Y3, Y1, Y0
` + log1pBody + `	VMULPD libmE0<>(SB), Y0, Y0
	VXORPD Y15, Y0, Y0
`

// log2Body: Y0 = x in, Y0 = log2F64(x) out: Log(x)·(1/Ln2) on [1/2, 2]
// (libm.go), else math.Log2 ($GOROOT/src/math/log10.go log2: Frexp(x)
// = frac·2^exp, exp-1 where frac is 1/2, else Log(frac)·(1/Ln2) + exp):
// one pass of logBody on x or frac, both in [1/2, 2]. It exits to done
// unless every x is a positive normal number.
const log2Body = log2Head + logBody + log2Tail

// log2Head: Y0 = x in; out: Y0 = x or frac (logBody's argument), Y10 =
// exp, Y11 = frac, Y12 = the lanes of [1/2, 2], Y15 = x. log2Tail: Y0 =
// its Log in, Y0 = log2F64(x) out. log2Head512 (with logReduce512: its
// check is logBody's) and log2Tail512 are their AVX-512 forms, which skip
// the lanes beyond [1/2, 2] where neither group of eight has one (Z13).
const log2Head = `	VMOVUPD Y0, Y15
	VPCMPGTQ libmMINNORMM1<>(SB), Y0, Y5
	VMOVDQU libmPINF<>(SB), Y6
	VPCMPGTQ Y0, Y6, Y6
	VPAND Y5, Y6, Y5 // positive, normal, finite
	VMOVMSKPD Y5, AX
	CMPL AX, $15
	JNE  done
	VANDPD libmMANT<>(SB), Y15, Y0
	VORPD libmE0<>(SB), Y0, Y0 // frac
	VMOVUPD Y0, Y11
	VPSRLQ $52, Y15, Y10
	VPOR libmMAGICBITS<>(SB), Y10, Y10
	VSUBPD libmKMAGIC<>(SB), Y10, Y10 // exp
	VCMPPD $13, libmE0<>(SB), Y15, Y5
	VCMPPD $2, libmE16<>(SB), Y15, Y6
	VANDPD Y6, Y5, Y12 // 1/2 <= x <= 2
	VBLENDVPD Y12, Y15, Y0, Y0 // x there, frac elsewhere
`

const log2Tail = `	VMULPD libmINVLN2X<>(SB), Y0, Y0
	VADDPD Y10, Y0, Y1 // Log(frac)·(1/Ln2) + exp
	VSUBPD libmE8<>(SB), Y10, Y2
	VCMPPD $0, libmE0<>(SB), Y11, Y3 // frac == 1/2: exp - 1
	VBLENDVPD Y3, Y2, Y1, Y1
	VBLENDVPD Y12, Y0, Y1, Y0
`

const log2Head512 = "\tVMOVAPD Z0, Z15\n" + logCheck512 + `	VCMPPD $13, libmE0<>(SB), Z15, K3
	VCMPPD $2, libmE16<>(SB), Z15, K3, K3 // 1/2 <= x <= 2
	VPMOVM2Q K3, Z12
	VPTERNLOGQ $0x55, Z12, Z12, Z13 // the other lanes
	SKIPNONE Y13, log2near
	VANDPD libmMANT<>(SB), Z15, Z0
	VORPD libmE0<>(SB), Z0, Z0 // frac
	VMOVAPD Z0, Z11
	VPSRLQ $52, Z15, Z10
	VPORQ libmMAGICBITS<>(SB), Z10, Z10
	VSUBPD libmKMAGIC<>(SB), Z10, Z10 // exp
	VMOVAPD Z15, K3, Z0 // x there, frac elsewhere
log2near:
`

const log2Tail512 = `	VMULPD libmINVLN2X<>(SB), Z0, Z0
	SKIPNONE Y13, log2near2
	VADDPD Z10, Z0, Z1 // Log(frac)·(1/Ln2) + exp
	VCMPPD $0, libmE0<>(SB), Z11, K2 // frac == 1/2: exp - 1
	VSUBPD libmE8<>(SB), Z10, K2, Z1
	VPMOVQ2M Z13, K3
	VMOVAPD Z1, K3, Z0
log2near2:
`

// logLarge ends asinhBody's and acoshBody's path above 2, which they
// skip when no lane of the group takes it: Y0 = Log's argument where Y10
// (a lane above 2) is set, 2 elsewhere; Y11 the lanes where that argument
// is x itself and Ln2 is added (from 2^28); Y12 the results of the lanes
// below. Out: Y0, each lane's. That path's square root and division ran
// on every group before: asinh of 10^6 float64 in [0, 1) took 3.1 ms.
const logLarge = `	VMOVUPD libmE16<>(SB), Y1
	VBLENDVPD Y10, Y0, Y1, Y0
` + logBody + `	VADDPD libmLN2F<>(SB), Y0, Y1
	VBLENDVPD Y11, Y1, Y0, Y0
	VBLENDVPD Y10, Y0, Y12, Y0
`

// asinhBody: Y0 = x in, Y0 = asinhF64(x) out (libm.go: math.Asinh's,
// $GOROOT/src/math/asinh.go asinh, with log1pF64), on a = |x| with x's
// sign: Log(a) + Ln2 above 2^28, Log(2a + 1/(Sqrt(a·a+1)+a)) above 2, a
// below 2^-28, else Log1p(a + a·a/(1 + Sqrt(1+a·a)))); exits to done for
// NaN and ±Inf (and where log1pBody exits). Each lane gives the body it
// does not take a filler (1/2, 2), and a body no lane of the group takes
// is skipped (SKIPNONE).
const asinhBody = `	VMOVUPD Y0, Y15
	VANDPD libmABS<>(SB), Y0, Y0
	VCMPPD $1, libmPINF<>(SB), Y0, Y5 // |x| < Inf (false for NaN)
	VMOVMSKPD Y5, AX
	CMPL AX, $15
	JNE  done
	VMULPD Y0, Y0, Y1
	VADDPD libmE8<>(SB), Y1, Y1
	VSQRTPD Y1, Y1
	VADDPD libmE8<>(SB), Y1, Y1
	VMULPD Y0, Y0, Y2
	VDIVPD Y1, Y2, Y2
	VADDPD Y2, Y0, Y0 // a + a·a/(1+Sqrt(1+a·a))
	VANDPD libmABS<>(SB), Y15, Y3
	VCMPPD $2, libmE16<>(SB), Y3, Y5 // a <= 2
	VCMPPD $13, libmTINY28<>(SB), Y3, Y6 // a >= 2^-28 (log1p exits on the tiniest)
	VANDPD Y6, Y5, Y5
	VMOVUPD libmE0<>(SB), Y1
	VBLENDVPD Y5, Y0, Y1, Y0
	SKIPNONE Y5, nolog1p
` + log1pBody + `nolog1p:
	VMOVUPD Y0, Y12 // a <= 2
	VANDPD libmABS<>(SB), Y15, Y13 // a
	VCMPPD $14, libmE16<>(SB), Y13, Y10 // a > 2
	SKIPNONE Y10, nolarge
	VMULPD Y13, Y13, Y1
	VADDPD libmE8<>(SB), Y1, Y1
	VSQRTPD Y1, Y1
	VADDPD Y13, Y1, Y1
	VMOVUPD libmE8<>(SB), Y2
	VDIVPD Y1, Y2, Y2
	VADDPD Y13, Y13, Y0
	VADDPD Y2, Y0, Y0 // 2a + 1/(Sqrt(a·a+1)+a)
	VCMPPD $14, libmLARGE28<>(SB), Y13, Y11 // a > 2^28
	VBLENDVPD Y11, Y13, Y0, Y0
` + logLarge + `	VMOVUPD Y0, Y12
nolarge:
	VMOVUPD Y12, Y0
	VCMPPD $1, libmTINY28<>(SB), Y13, Y5 // a < 2^-28: a
	VBLENDVPD Y5, Y13, Y0, Y0
	VANDPD libmSIGN<>(SB), Y15, Y1
	VXORPD Y1, Y0, Y0
`

// acoshBody: Y0 = x in, Y0 = acoshF64(x) out (libm.go: math.Acosh's,
// $GOROOT/src/math/acosh.go acosh, with log1pF64): NaN() below 1, 0 at 1,
// Log(x) + Ln2 from 2^28, Log(2x - 1/(x+Sqrt(x·x-1))) above 2, else
// Log1p(t + Sqrt(2t+t·t)) with t = x-1); exits to done for NaN and +Inf
// (and where log1pBody exits). A body no lane of the group takes is
// skipped (SKIPNONE).
const acoshBody = `	VMOVUPD Y0, Y15
	VCMPPD $0, Y0, Y0, Y5 // not NaN
	VCMPPD $1, libmPINF<>(SB), Y0, Y6 // x < Inf
	VANDPD Y6, Y5, Y5
	VMOVMSKPD Y5, AX
	CMPL AX, $15
	JNE  done
	VSUBPD libmE8<>(SB), Y0, Y1 // t
	VADDPD Y1, Y1, Y2
	VMULPD Y1, Y1, Y3
	VADDPD Y3, Y2, Y2
	VSQRTPD Y2, Y2
	VADDPD Y2, Y1, Y1 // t + Sqrt(2t+t·t)
	VCMPPD $14, libmE8<>(SB), Y0, Y5 // x > 1
	VCMPPD $2, libmE16<>(SB), Y0, Y6 // x <= 2
	VANDPD Y6, Y5, Y5
	VMOVUPD libmE0<>(SB), Y0
	VBLENDVPD Y5, Y1, Y0, Y0
	SKIPNONE Y5, nolog1p
` + log1pBody + `nolog1p:
	VMOVUPD Y0, Y12 // 1 < x <= 2
	VCMPPD $14, libmE16<>(SB), Y15, Y10 // x > 2
	SKIPNONE Y10, nolarge
	VMULPD Y15, Y15, Y1
	VSUBPD libmE8<>(SB), Y1, Y1
	VSQRTPD Y1, Y1
	VADDPD Y15, Y1, Y1
	VMOVUPD libmE8<>(SB), Y2
	VDIVPD Y1, Y2, Y2
	VADDPD Y15, Y15, Y0
	VSUBPD Y2, Y0, Y0 // 2x - 1/(x+Sqrt(x·x-1))
	VCMPPD $13, libmLARGE28<>(SB), Y15, Y11 // x >= 2^28
	VBLENDVPD Y11, Y15, Y0, Y0
` + logLarge + `	VMOVUPD Y0, Y12
nolarge:
	VMOVUPD Y12, Y0
	VXORPD Y1, Y1, Y1
	VCMPPD $0, libmE8<>(SB), Y15, Y5 // x == 1: 0
	VBLENDVPD Y5, Y1, Y0, Y0
	VCMPPD $1, libmE8<>(SB), Y15, Y5 // x < 1: NaN()
	VBLENDVPD Y5, libmGONAN<>(SB), Y0, Y0
`

// expm1Body: Y0 = x in, Y0 = expm1F64(x) out (libm.go: the same
// operations in the same order, math.FMA's as VFMADD*PD); exits to done
// unless every x is in [-36, 709] (not NaN). The result takes x's sign
// (it has it already but for x = -0, which gives -0).
const expm1Body = expm1Check + `	VMOVUPD Y0, Y15
	VMULPD libmINVLN2X<>(SB), Y0, Y1
	VADDPD libmRNDMAGIC<>(SB), Y1, Y1
	VSUBPD libmRNDMAGIC<>(SB), Y1, Y1 // k
	VMOVUPD libmLN2HI<>(SB), Y2
	VFNMADD213PD Y0, Y1, Y2 // rhi = x - k·Ln2Hi, exact
	VMULPD libmLN2LO<>(SB), Y1, Y3 // c
	VSUBPD Y3, Y2, Y4 // r
	VSUBPD Y4, Y2, Y2
	VSUBPD Y3, Y2, Y2 // rlo = (rhi - r) - c
	VMOVUPD libmEMQ11<>(SB), Y5
	VFMADD213PD libmEMQ10<>(SB), Y4, Y5
	VFMADD213PD libmEMQ9<>(SB), Y4, Y5
	VFMADD213PD libmEMQ8<>(SB), Y4, Y5
	VFMADD213PD libmEMQ7<>(SB), Y4, Y5
	VFMADD213PD libmEMQ6<>(SB), Y4, Y5
	VFMADD213PD libmEMQ5<>(SB), Y4, Y5
	VFMADD213PD libmEMQ4<>(SB), Y4, Y5
	VFMADD213PD libmEMQ3<>(SB), Y4, Y5
	VFMADD213PD libmEMQ2<>(SB), Y4, Y5
	VFMADD213PD libmEMQ1<>(SB), Y4, Y5
	VFMADD213PD libmE0<>(SB), Y4, Y5 // q
	VMULPD Y4, Y5, Y7
	VFMADD213PD Y2, Y4, Y7 // u = r·(r·q) + rlo
	VADDPD libmAEMAGIC<>(SB), Y1, Y9
	VPSLLQ $52, Y9, Y9 // 2^k
	VSUBPD libmE8<>(SB), Y9, Y10 // 2^k - 1
	VMULPD Y4, Y9, Y11 // b = 2^k·r
	VADDPD Y11, Y10, Y12 // hi
	VSUBPD Y10, Y12, Y13
	VSUBPD Y13, Y11, Y13 // lo = b - (hi - (2^k - 1))
	VFMADD231PD Y7, Y9, Y13 // 2^k·u + lo
	VADDPD Y13, Y12, Y0
	VANDPD libmSIGN<>(SB), Y15, Y5
	VORPD Y5, Y0, Y0 // x's sign: the result's but for x = -0
`

// expm1Check is expm1Body's check, and expm1Check512 its AVX-512 form.
const expm1Check = `	VCMPPD $13, libmEM1LO<>(SB), Y0, Y5 // x >= -36 (false for NaN)
	VCMPPD $2, libmEM1HI<>(SB), Y0, Y6 // x <= 709
	VANDPD Y6, Y5, Y5
	VMOVMSKPD Y5, AX
	CMPL AX, $15
	JNE  done
`

const expm1Check512 = `	VCMPPD $13, libmEM1LO<>(SB), Z0, K2 // x >= -36 (false for NaN)
	VCMPPD $2, libmEM1HI<>(SB), Z0, K2, K2 // x <= 709
	KMOVB K2, AX
	CMPL AX, $0xFF
	JNE  done
`

// powHead, powRound four times, powTail: Y0 = x, Y12 = y in, Y0 = math.Pow(x, y) out, for x in
// [2^-256, 2^256] but 1 and y not an integer, |y| < 15.5 and no integer
// plus 1/2 (powF64 computes those in double-double arithmetic), with
// a normal result ($GOROOT/src/math/pow.go pow: yi, yf = Modf(|y|), yf
// moved to (-0.5, 0.5], a1 = Exp(yf·Log(x)), then x^yi by squarings of
// Frexp(x) with the exponents apart, here four rounds for the four bits
// of yi, and Ldexp). The float exponents xe and ae are kept as
// (integral) float64 values, exact.
const powHead = powCheck + logBodyGo + powMul + expBody + powFrexp

// powCheck is powHead up to log(x): the checks, yi and yf.
const powCheck = `	VMOVUPD Y0, Y13
	VCMPPD $13, libmXMIN<>(SB), Y0, Y5 // x >= 2^-256 (false for NaN)
	VCMPPD $2, libmXMAX<>(SB), Y0, Y6 // x <= 2^256
	VANDPD Y6, Y5, Y5
	VCMPPD $4, libmE8<>(SB), Y0, Y6 // x != 1
	VANDPD Y6, Y5, Y5
	VANDPD libmABS<>(SB), Y12, Y14
	VCMPPD $1, libmYMAX<>(SB), Y14, Y6 // |y| < 15.5
	VANDPD Y6, Y5, Y5
	VROUNDPD $3, Y14, Y15 // yi = trunc(|y|)
	VSUBPD Y15, Y14, Y14 // yf
	VCMPPD $4, libmE0<>(SB), Y14, Y6 // yf != 0.5 (powF64's half-integer powers)
	VANDPD Y6, Y5, Y5
	VXORPD Y6, Y6, Y6
	VCMPPD $4, Y6, Y14, Y6 // yf != 0
	VANDPD Y6, Y5, Y5
	VMOVMSKPD Y5, AX
	CMPL AX, $15
	JNE  done
	VCMPPD $14, libmE0<>(SB), Y14, Y5 // yf > 0.5: yf--, yi++
	VANDPD libmE8<>(SB), Y5, Y5
	VSUBPD Y5, Y14, Y14
	VADDPD Y5, Y15, Y15
`

// powMul is yf·log(x), the argument of exp.
const powMul = `	VMULPD Y14, Y0, Y0
`

// powFrexp is powHead after exp: a1, and Frexp(x) for the rounds.
const powFrexp = `	VMOVUPD Y0, Y9 // a1
	VANDPD libmMANT<>(SB), Y13, Y7
	VORPD libmE0<>(SB), Y7, Y7 // x1
	VPSRLQ $52, Y13, Y8
	VPOR libmMAGICBITS<>(SB), Y8, Y8
	VSUBPD libmKMAGIC<>(SB), Y8, Y8 // xe
	VXORPD Y10, Y10, Y10 // ae
	VCVTTPD2DQY Y15, X11
	VPMOVSXDQ X11, Y11 // yi as int64 lanes
`

// powRound is one round of the loop of pow on the bits of yi (the shift
// {{.}} brings the next bit to the sign, which VBLENDVPD tests).
const powRound = `	VPSLLQ ${{.}}, Y11, Y5 // the next bit of yi to the sign
	VMULPD Y7, Y9, Y6
	VBLENDVPD Y5, Y6, Y9, Y9
	VADDPD Y8, Y10, Y6
	VBLENDVPD Y5, Y6, Y10, Y10
	VMULPD Y7, Y7, Y7
	VADDPD Y8, Y8, Y8
	VCMPPD $1, libmE0<>(SB), Y7, Y5 // x1 < 0.5
	VADDPD Y7, Y7, Y6
	VBLENDVPD Y5, Y6, Y7, Y7
	VANDPD libmE8<>(SB), Y5, Y5
	VSUBPD Y5, Y8, Y8
`

// powRecip, the start of powTail: a1 = 1/a1 where y < 0.
const powRecip = `	VMOVUPD libmE8<>(SB), Y6 // y < 0: a1 = 1/a1, ae = -ae
	VDIVPD Y9, Y6, Y6
	VBLENDVPD Y12, Y6, Y9, Y9
`

// powSign is the rest of powTail: ae = -ae where y < 0, and the checks.
const powSign = `	VANDPD libmSIGN<>(SB), Y12, Y6
	VXORPD Y6, Y10, Y10
	VANDPD libmABS<>(SB), Y10, Y6 // |ae| <= 1000
	VCMPPD $2, libmAEMAX<>(SB), Y6, Y5
	VADDPD libmAEMAGIC<>(SB), Y10, Y6 // 2^ae
	VPSLLQ $52, Y6, Y6
	VMULPD Y6, Y9, Y0
	VPCMPGTQ libmMINNORMM1<>(SB), Y0, Y6 // a normal result
	VPAND Y6, Y5, Y5
	VMOVDQU libmPINF<>(SB), Y6
	VPCMPGTQ Y0, Y6, Y6
	VPAND Y6, Y5, Y5
	VMOVMSKPD Y5, AX
	CMPL AX, $15
	JNE  done
`

const powTail = powRecip + powSign

// The AVX-512 loop of pow has its checks and its rounds written for
// AVX-512 (as the translation of powHead, powRound and powTail gives
// them, they take half as many instructions again): a comparison ANDs
// into the opmask K2 (masked by it), and each blend of a result with an
// operand is that operation merge-masked, which leaves the other lanes
// as they were (where the AVX2 code adds or subtracts 0 there, which
// gives back the same bits: yf, yi and xe are not NaN, and -0 + -0 or
// -0 - +0 is -0).

// powCheck512 is powHead up to log(x).
const powCheck512 = `	VMOVUPD Z0, Z13
	VCMPPD $13, libmXMIN<>(SB), Z0, K2 // x >= 2^-256 (false for NaN)
	VCMPPD $2, libmXMAX<>(SB), Z0, K2, K2 // x <= 2^256
	VCMPPD $4, libmE8<>(SB), Z0, K2, K2 // x != 1
	VANDPD libmABS<>(SB), Z12, Z14
	VCMPPD $1, libmYMAX<>(SB), Z14, K2, K2 // |y| < 15.5
	VRNDSCALEPD $3, Z14, Z15 // yi = trunc(|y|)
	VSUBPD Z15, Z14, Z14 // yf
	VCMPPD $4, libmE0<>(SB), Z14, K2, K2 // yf != 0.5 (powF64's half-integer powers)
	VXORPD Z6, Z6, Z6
	VCMPPD $4, Z6, Z14, K2, K2 // yf != 0
	KMOVB K2, AX
	CMPL AX, $0xFF
	JNE  done
	VCMPPD $14, libmE0<>(SB), Z14, K2 // yf > 0.5: yf--, yi++
	VSUBPD libmE8<>(SB), Z14, K2, Z14
	VADDPD libmE8<>(SB), Z15, K2, Z15
`

// powRound512 is powRound.
const powRound512 = `	VPSLLQ ${{.}}, Z11, Z5
	VPMOVQ2M Z5, K2 // the next bit of yi
	VMULPD Z7, Z9, K2, Z9
	VADDPD Z8, Z10, K2, Z10
	VMULPD Z7, Z7, Z7
	VADDPD Z8, Z8, Z8
	VCMPPD $1, libmE0<>(SB), Z7, K2 // x1 < 0.5
	VADDPD Z7, Z7, K2, Z7
	VSUBPD libmE8<>(SB), Z8, K2, Z8
`

// powRecip512 is powRecip.
const powRecip512 = `	VPMOVQ2M Z12, K2 // y < 0: a1 = 1/a1
	VMOVUPD libmE8<>(SB), Z6
	VDIVPD Z9, Z6, K2, Z9
`

// powSign512 is powSign.
const powSign512 = `	VANDPD libmSIGN<>(SB), Z12, Z6
	VXORPD Z6, Z10, Z10
	VANDPD libmABS<>(SB), Z10, Z6
	VCMPPD $2, libmAEMAX<>(SB), Z6, K2 // |ae| <= 1000
	VADDPD libmAEMAGIC<>(SB), Z10, Z6 // 2^ae
	VPSLLQ $52, Z6, Z6
	VMULPD Z6, Z9, Z0
	VPCMPGTQ libmMINNORMM1<>(SB), Z0, K2, K2 // a normal result
	VMOVDQU64 libmPINF<>(SB), Z6
	VPCMPGTQ Z0, Z6, K2, K2
	KMOVB K2, AX
	CMPL AX, $0xFF
	JNE  done
`

var funcs = []struct {
	name, body, ref string
	// only names the one element type with a loop ("F32", "F64"), or
	// is empty for both: float32 tanh has a loop of its own (tanhF32),
	// and pow15's rounding check needs the float64 result to be wider
	// than the stored one.
	only string
}{
	{"exp", expBody, "math.Exp(x)", ""},
	{"log", logBody, "logF64(x)", ""},
	{"sin", sinBody, "sinF64(x)", ""},
	{"cos", cosBody, "cosF64(x)", ""},
	{"sigmoid", sigmoidBody, "sigmoid(x)", ""},
	{"silu", siluBody, "x * sigmoid(x)", ""},
	{"log1p", log1pBody, "log1pF64(x)", "F64"}, // float32: log1pr
	{"tanh", tanhBody, "math.Tanh(x)", "F64"},
	{"exp2", exp2Body, "exp2F64(x)", ""},
	{"atan", atanBody, "atanF64(x)", ""},
	{"tan", tanBody, "tanF64(x)", ""},
	{"expm1", expm1Body, "expm1F64(x)", ""},
	{"asin", asinBody, "asinF64(x)", ""},
	{"acos", acosBody, "acosF64(x)", ""},
	{"log10", log10Body, "log10F64(x)", ""},
	{"cosh", coshBody, "coshF64(x)", ""},
	{"sinh", sinhBody, "sinhF64(x)", ""},
	{"atanh", atanhBody, "atanhF64(x)", ""},
	{"log2", log2Body, "log2F64(x)", "F64"}, // float32: log2r
	{"asinh", asinhBody, "asinhF64(x)", ""},
	{"acosh", acoshBody, "acoshF64(x)", ""},
	{"pow15", pow15Body, "powF64(x, 1.5)", "F32"},
	{"pow15d", pow15dBody, "powF64(x, 1.5)", "F64"},
	{"powmh", powmhBody, "powF64(x, -0.5)", "F64"},
	{"log2r", log2r32Body, "log2F64(x)", "F32"},
	{"log1pr", log1pr32Body, "log1pF64(x)", "F32"},
	{"expm1r", expm1r32Body, "expm1F64(x)", "F32"},
	{"asinhr", asinhr32Body, "asinhF64(x)", "F32"},
	{"acoshr", acoshr32Body, "acoshF64(x)", "F32"},
	{"atanhr", atanhr32Body, "atanhF64(x)", "F32"},
	{"pow4", pow4Body, "powF64(x, 4)", "F32"},
	{"powm2", powm2Body, "powF64(x, -2)", "F32"},
	{"recip", recipBody, "powF64(x, -1)", "F64"},
}

// binFuncs512 are float32 loops of two operands that only AVX-512 has
// (as funcs512), chained before pow's loop.
var binFuncs512 = []struct{ name, body, ref string }{
	{"powt", powtBody, "powF64(x, y)"},
	{"atan2t", atan2Core + roundCheck512, "atan2F64(x, y)"},
}

// funcs512 are float32 loops that only AVX-512 has: their bodies use
// its instructions (VGETMANTPD, VGETEXPPD, gathers), and without it the
// function keeps the loop named in funcs. Each is chained before that
// loop (see chained in simd_libm_amd64.go), which takes the groups it
// leaves.
var funcs512 = []struct{ name, body, ref string }{
	{"log2t", positiveNormal + log2Table + roundCheck512, "log2F64(x)"},
	{"logt", positiveNormal + log2Table + "\tVMULPD libmLN2F<>(SB), Z0, Z0\n" + roundCheck512, "logF64(x)"},
	{"log10t", positiveNormal + log2Table + "\tVMULPD libmLOG10TWO<>(SB), Z0, Z0\n" + roundCheck512, "log10F64(x)"},
	{"exp2t", expRange("EXP2LO", "EXP2HI") + exp2Reduce + expTable + expTail + roundCheck512, "exp2F64(x)"},
	{"expt", expRange("EXPLO", "EXPHI") + expReduce + expTable + expTail + roundCheck512, "math.Exp(x)"},
	{"expm1t", expRange("EXPM1LO", "EXPHI") + notTiny + expReduce + expTable + expm1Tail + roundCheck512,
		"expm1F64(x)"},
	{"cosht", "\tVANDPD libmABS<>(SB), Z0, Z0\n" + expRange("ZEROD", "HYPHI") + expReduce + expTable + expTail + coshTail +
		roundCheck512, "coshF64(x)"},
	{"sinht", sinhHead + expRange("ZEROD", "HYPHI") + expReduce + expTable + expTail + sinhTail + roundCheck512,
		"sinhF64(x)"},
	{"tanht", tanhtBody, "tanh64(x)"},
	{"asinht", strings.Replace(asinhr32Body, logBody, lnTable, 1), "asinhF64(x)"},
	{"acosht", strings.Replace(acoshr32Body, logBody, lnTable, 1), "acoshF64(x)"},
	{"atanht", strings.Replace(atanhr32Body, logBody, lnTable, 1), "atanhF64(x)"},
	{"rsqrtt", positiveNormal + rsqrtBody + roundCheck512, "1 / math.Sqrt(x)"},
	{"sint", sincosReduce + "\tVMULPD Z8, Z3, Z0 // C·sin r\n\tVFMADD231PD Z9, Z5, Z0 // + S·cos r\n\tVXORPD Z7, Z0, Z0\n" +
		roundCheck512, "sinF64(x)"},
	{"cost", sincosReduce + "\tVMULPD Z9, Z3, Z0 // C·cos r\n\tVFNMADD231PD Z8, Z5, Z0 // - S·sin r\n\tVXORPD Z10, Z0, Z0\n" +
		roundCheck512, "cosF64(x)"},
	{"tant", sincosReduce + tanTail + roundCheck512, "tanF64(x)"},
	{"atant", atanCore + roundCheck512, "atanF64(x)"},
	{"asinp", asinpBody + roundCheck512, "asinF64(x)"},
	{"acosp", acospBody + roundCheck512, "acosF64(x)"},
	{"log1pt", log1pArg + positiveNormal + log2Table + "\tVMULPD libmLN2F<>(SB), Z0, Z0\n" + roundCheck512,
		"log1pF64(x)"},
}

// log2Series are the coefficients of log2Table's polynomial p, p(r) =
// log2(1 + r)/r for |r| <= 1/24 (Σ (-1)^k r^k/((k+1)·ln 2)), economized
// from degree 13 to 7: within 2^-47 of p.
var log2Series = economized(func(k int) float64 { return math.Pow(-1, float64(k)) / (float64(k+1) * math.Ln2) },
	13, 7, 1.0/24)

// expSeries are the coefficients of expTable's polynomial f, f(s) =
// (e^s - 1)/s for |s| <= ln(2)/32 (Σ s^k/(k+1)!), economized from
// degree 10 to 5: within 2^-50 of f.
var expSeries = economized(func(k int) float64 { return 1 / math.Gamma(float64(k+2)) }, 10, 5, 0.0217)

// asinSeries are the coefficients of asinPoly's polynomial P, P(u) =
// (asin(t)/t - 1)/u for u = t² <= 1/4 (Σ c_(k+1) u^k, c_n =
// (2n)!/(4^n (n!)² (2n+1)), the Taylor series of asin), economized from
// degree 80 to 13: t + t·u·P(u) is within 2^-50 of asin t for t in [0,
// 1/2] (measured against the series in big.Float, roundings included).
var asinSeries = economized(func(k int) float64 {
	n, b := k+1, 1.0
	for i := 1; i <= n; i++ {
		b *= float64(2*i-1) / float64(2*i)
	}
	return b / float64(2*n+1)
}, 80, 13, 0.25)

// economized returns the coefficients of a polynomial of degree deg
// close to the series Σ c(k)·x^k (k = 0..top) for |x| <= a: each term
// above deg is traded for the lower terms of the Chebyshev polynomial
// T_n(x/a) that has it (Chebyshev economization), which adds an error of
// at most its coefficient times a^n/2^(n-1).
func economized(c func(k int) float64, top, deg int, a float64) []float64 {
	d := make([]float64, top+1) // the coefficients of u = x/a
	for k := range d {
		d[k] = c(k) * math.Pow(a, float64(k))
	}
	t := [][]float64{{1}, {0, 1}} // T_n's coefficients
	for n := 2; n <= top; n++ {
		tn := make([]float64, n+1)
		for i, v := range t[n-1] {
			tn[i+1] += 2 * v
		}
		for i, v := range t[n-2] {
			tn[i] -= v
		}
		t = append(t, tn)
	}
	for n := top; n > deg; n-- {
		f := d[n] / t[n][n]
		for i, v := range t[n] {
			d[i] -= f * v
		}
	}
	d = d[:deg+1]
	for k := range d {
		d[k] /= math.Pow(a, float64(k))
	}
	return d
}

// lnTable: Z0 = z in, Z0 = ln z out (log2Table's, times ln 2), where
// every lane is a positive normal float64 (else it exits to done): it
// stands for logBody in the float32 loops of asinh, acosh and atanh,
// which keep their own values in Z8 and above.
const lnTable = positiveNormal + log2Table + "\tVMULPD libmLN2F<>(SB), Z0, Z0\n"

// positiveNormal exits to done unless every lane of Z0 is a positive
// normal float64 below +Inf (as every positive float32 is): VFPCLASSPD's
// classes NaN, ±0, ±Inf, subnormal and negative stop the loop.
const positiveNormal = `	VFPCLASSPDZ $0xFF, Z0, K2
	KMOVB K2, AX
	TESTL AX, AX
	JNE  done
`

// roundCheck512 is roundCheck32 for the AVX-512 loops, in two
// instructions: the low 29 bits lie within 2^10 of 2^28 exactly where
// (bits + 2^10 - 2^28) mod 2^29 < 2^11, that is where bits 11 to 28 of
// the sum are all clear (VPTESTNMQ with ZIVM).
const roundCheck512 = `	VPADDQ libmZIVC<>(SB), Z0, Z2
	VPTESTNMQ libmZIVM<>(SB), Z2, K2 // near the midpoint
	KMOVB K2, AX
	TESTL AX, AX
	JNE  done
`

// log1pArg: Z0 = x in, Z0 = 1 + x out, exact: it exits to done unless
// |x| >= 2^-29 in every lane (then 1 + x needs at most 53 bits for a
// float32 x; NaN stops too).
const log1pArg = notTiny + "\tVADDPD libmE8<>(SB), Z0, Z0\n"

// log2Table: Z0 = z in (a positive normal float64), Z0 = log2(z) out
// (Z1-Z7 and K2 are scratch),
// within 2^-45 of it, relative: z = 2^k·m with m in [3/4, 3/2)
// (VGETMANTPD; k is VGETEXPPD's floor(log2 z), plus 1 where m < 1); j =
// m·16 rounded (12..24, through the bits of 2^48 + m); r = m·invc_j - 1
// in one rounding (FMA), where invc_j is 16/j rounded (the table LTINVC,
// indexed by j mod 16 in two registers: VPERMI2PD), so |r| <= 1/24; and
// log2(z) = k + log2(1/invc_j) (the table LTLOGC) + log2(1 + r), the
// last as r·p(r) (log2Series: within 2^-47 of it). m near 1 takes j =
// 16, invc = 1 and log2(1/invc) = 0, so that the sum does not cancel
// there (elsewhere |log2 z| >= 2^-4.6 or k != 0, and it cancels at most
// one bit).
// Its loops are about twice as fast as the division in log's
// (math.Log's) body allows; a gathered table of 128 entries (a shorter
// series) was slower, as each gather takes as long as nine instructions.
const log2Table = `	VGETMANTPD $3, Z0, Z1 // m in [3/4, 3/2)
	VGETEXPPD Z0, Z2 // floor(log2 z)
	VCMPPD $1, libmE8<>(SB), Z1, K2 // m < 1: z = 2^(e+1)·m
	VADDPD libmE8<>(SB), Z2, K2, Z2 // k
	VADDPD libmLTMAGIC<>(SB), Z1, Z3 // 2^48 + j/16
	VMOVAPD Z3, Z4
	VMOVUPD libmLTINVC<>(SB), Z5
	VPERMI2PD libmLTINVC<>+64(SB), Z5, Z4 // invc_j
	VMOVUPD libmLTLOGC<>(SB), Z5
	VPERMI2PD libmLTLOGC<>+64(SB), Z5, Z3 // log2(1/invc_j)
	VFMSUB213PD libmE8<>(SB), Z1, Z4 // r = m·invc_j - 1
` + log2Poly + `	VADDPD Z3, Z2, Z0 // k + log2(1/invc_j)
	VFMADD231PD Z6, Z4, Z0
`

// expRange exits to done unless lo <= x <= hi in every lane (which
// excludes NaN): lo and hi name constants.
func expRange(lo, hi string) string {
	return fmt.Sprintf(`	VCMPPD $13, libm%s<>(SB), Z0, K2 // x >= lo (false for NaN)
	VCMPPD $2, libm%s<>(SB), Z0, K2, K2 // x <= hi
	KMOVB K2, AX
	CMPL AX, $0xFF
	JNE  done
`, lo, hi)
}

// notTiny exits to done unless |x| >= 2^-29 in every lane (false for
// NaN).
const notTiny = `	VANDPD libmABS<>(SB), Z0, Z1
	VCMPPD $13, libmSMALL<>(SB), Z1, K2 // |x| >= 2^-29
	KMOVB K2, AX
	CMPL AX, $0xFF
	JNE  done
`

// exp2Reduce and expReduce: Z0 = x in; out: Z1 = n, x or x·log2(e)
// rounded to a multiple of 1/16, Z3 = 1.5·2^48 + n (whose low four bits
// are 16n mod 16), and Z4 = s, with x = (n + s/ln 2) or x = n·ln 2 + s:
// |s| <= ln(2)/32. For exp2, x - n is exact and s is its product with
// ln 2; for exp, n·ln 2 is subtracted in two parts (Cody and Waite: the
// upper part, 32 bits, times n, 12 bits, is exact, and so is x less it).
const exp2Reduce = `	VADDPD libmETMAGIC<>(SB), Z0, Z3 // 1.5·2^48 + n
	VSUBPD libmETMAGIC<>(SB), Z3, Z1 // n
	VSUBPD Z1, Z0, Z4 // x - n, exact
	VMULPD libmLN2F<>(SB), Z4, Z4 // s
`

const expReduce = `	VMOVUPD libmLOG2E<>(SB), Z3
	VFMADD213PD libmETMAGIC<>(SB), Z0, Z3 // 1.5·2^48 + n
	VSUBPD libmETMAGIC<>(SB), Z3, Z1 // n
	VMOVAPD Z0, Z4
	VFNMADD231PD libmLN2U<>(SB), Z1, Z4 // x - n·ln2's upper part, exact
	VFNMADD231PD libmLN2L<>(SB), Z1, Z4 // s
`

// expTable: Z1 = n, Z3 and Z4 = s (of exp2Reduce or expReduce) in; out:
// Z3 = T = 2^(j/16), j = 16n mod 16 (the table ETAB in two registers:
// VPERMI2PD), and Z5 = u = e^s - 1, as s·f(s) (expSeries), within 2^-50
// of it: so that 2^x or e^x is 2^floor(n)·(T + T·u).
const expTable = `	VMOVUPD libmETAB<>(SB), Z6
	VPERMI2PD libmETAB<>+64(SB), Z6, Z3 // T
	VMOVUPD libmEF5<>(SB), Z5
	VFMADD213PD libmEF4<>(SB), Z4, Z5
	VFMADD213PD libmEF3<>(SB), Z4, Z5
	VFMADD213PD libmEF2<>(SB), Z4, Z5
	VFMADD213PD libmEF1<>(SB), Z4, Z5
	VFMADD213PD libmEF0<>(SB), Z4, Z5 // f(s)
	VMULPD Z4, Z5, Z5 // u
`

// expTail: Z0 = 2^floor(n)·(T + T·u) (VSCALEFPD), within 2^-49 of 2^x
// or e^x; expm1Tail: Z0 = (2^n' - 1) + 2^n'·u, 2^n' = 2^floor(n)·T,
// within 2^-48 of e^x - 1: 2^n' - 1 is exact where 2^n' is in [1/2, 2]
// (within 2^-53 of e^x - 1 elsewhere), and the two terms cancel at most
// one bit (|2^n' - 1| >= ln(2)/16·2^n' > 2|2^n'·u| where n != 0).
const expTail = `	VFMADD213PD Z3, Z3, Z5 // T + T·u
	VSCALEFPD Z1, Z5, Z0
`

const expm1Tail = `	VSCALEFPD Z1, Z3, Z3 // 2^n'
	VSUBPD libmE8<>(SB), Z3, Z0
	VFMADD231PD Z5, Z3, Z0
`

// coshTail: Z0 = E = e^|x| (expTail) in, Z0 = E/2 + (1/2)/E out (two
// positive terms, each within 2^-48). coshF64 is e^|x|/2 beyond 21,
// where the second term is below 2^-61 of the first: both round alike.
const coshTail = `	VMOVUPD libmE0<>(SB), Z6
	VDIVPD Z0, Z6, Z6 // (1/2)/E
	VFMADD231PD libmE0<>(SB), Z0, Z6
	VMOVAPD Z6, Z0
`

// sinhHead: Z0 = x in; out: Z0 = |x|, Z12 = x's sign, Z13 = |x|.
// sinhTail: Z0 = E = e^|x| in, Z0 = sinh(x) out: E/2 - (1/2)/E where |x|
// >= 1/4 (which cancels at most 1.4 bits: within 2^-46), else |x| times
// its Taylor series to x^10 (whose rest is below 2^-56 of it; skipped
// where no lane of the group needs it), x's sign put back. A float32 x below 2^-27 gives x itself (x² vanishes next to
// 1/6 and 1), which is exact.
const sinhHead = `	VANDPD libmSIGN<>(SB), Z0, Z12
	VANDPD libmABS<>(SB), Z0, Z0
	VMOVAPD Z0, Z13
`

const sinhTail = `	VMOVUPD libmE0<>(SB), Z6
	VDIVPD Z0, Z6, Z6 // (1/2)/E
	VFMSUB231PD libmE0<>(SB), Z0, Z6 // E/2 - (1/2)/E
	VCMPPD $1, libmQUARTER<>(SB), Y13, Y11 // |x| < 1/4
	SKIPNONE Y11, nosmall
	VMULPD Z13, Z13, Z7 // x²
	VMOVUPD libmSHT5<>(SB), Z8
	VFMADD213PD libmSHT4<>(SB), Z7, Z8
	VFMADD213PD libmSHT3<>(SB), Z7, Z8
	VFMADD213PD libmSHT2<>(SB), Z7, Z8
	VFMADD213PD libmSHT1<>(SB), Z7, Z8
	VFMADD213PD libmE8<>(SB), Z7, Z8
	VMULPD Z13, Z8, Z8
	VBLENDVPD Y11, Y8, Y6, Y6
nosmall:
	VORPD Z12, Z6, Z0
`

// tanhtBody is float32 tanh: tanh64's formula on expTable.
var tanhtBody = tanhHead + expReduce + expTable + expm1Tail + tanhTail + roundCheck512

// tanhHead: Z0 = x in; out: Z0 = 2·min(|x|, 20), Z12 = x's sign; it
// exits to done where x is NaN. tanhTail: Z0 = em = e^(2|x|) - 1
// (expm1Tail) in, Z0 = em/(em + 2) with x's sign out, within 2^-47 of
// tanh x: tanh64's formula (simd.go), whose own error is far smaller.
const tanhHead = `	VCMPPD $0, Z0, Z0, K2 // x == x
	KMOVB K2, AX
	CMPL AX, $0xFF
	JNE  done
	VANDPD libmSIGN<>(SB), Z0, Z12
	VANDPD libmABS<>(SB), Z0, Z0
	VMINPD libmTANHMAX<>(SB), Z0, Z0
	VADDPD Z0, Z0, Z0
`

const tanhTail = `	VADDPD libmE16<>(SB), Z0, Z6
	VDIVPD Z6, Z0, Z0
	VORPD Z12, Z0, Z0
`

// log2Poly: Z4 = r in, Z6 = p(r) = log2(1 + r)/r out (log2Series,
// by Estrin's scheme); Z1, Z5 and Z7 are scratch.
const log2Poly = `	VMULPD Z4, Z4, Z7 // r²
	VMOVUPD libmLT2<>(SB), Z6
	VFMADD213PD libmLT1<>(SB), Z4, Z6 // C1 + C2·r, and so on (Estrin)
	VMOVUPD libmLT4<>(SB), Z5
	VFMADD213PD libmLT3<>(SB), Z4, Z5
	VFMADD231PD Z5, Z7, Z6 // C1..C4
	VMOVUPD libmLT6<>(SB), Z1
	VFMADD213PD libmLT5<>(SB), Z4, Z1
	VMOVUPD libmLT8<>(SB), Z5
	VFMADD213PD libmLT7<>(SB), Z4, Z5
	VFMADD231PD Z5, Z7, Z1 // C5..C8
	VMULPD Z7, Z7, Z7 // r^4
	VFMADD231PD Z1, Z7, Z6 // p(r)
`

// powtBody: Z0 = x (a float32 value), Z12 = y in, Z0 = x**y out, within
// 2^-46 of it, for x a positive normal float64 and |y| < 15.5 where the
// result is a normal float32 or overflows: 2^(y·log2 x), log2 x = A + B
// as log2Table's sum with A = k + hi_j exact (the table PTLOGH holds
// log2(1/invc_j) to 2^-44, PTLOGL the rest) and B = lo_j + r·p(r), r
// exact (PTINVC's invc_j have 29 bits, m 24); y·A is split into Zh + Zl
// (FMA), y·B added to Zl, and expTable takes n = Zh + Zl rounded to a
// multiple of 1/16 and s = ((Zh - n) + Zl)·ln 2. B is within 2^-50.5 of
// its value (p's error; the rest are roundings of terms below 2^-4), y·B
// within 2^-46.5, and the roundings of Zh, Zl and s move the result by
// 2^-52, expTable's by 2^-49. powF64 takes math.Pow there, whose result
// is within 2^7 ULP (Exp(yf·Log(x)) within 2^6.5 for |yf·Log(x)| <= 52,
// four squarings of a float64 Frexp fraction), or (y an integer, 0.5)
// rounds once: roundCheck512 decides where both round alike.
var powtBody = positiveNormal + `	VANDPD libmABS<>(SB), Z12, Z14
	VCMPPD $1, libmYMAX<>(SB), Z14, K2 // |y| < 15.5 (false for NaN)
	KMOVB K2, AX
	CMPL AX, $0xFF
	JNE  done
	VGETMANTPD $3, Z0, Z1 // m in [3/4, 3/2)
	VGETEXPPD Z0, Z2
	VCMPPD $1, libmE8<>(SB), Z1, K2
	VADDPD libmE8<>(SB), Z2, K2, Z2 // k
	VADDPD libmLTMAGIC<>(SB), Z1, Z3 // 2^48 + j/16
	VMOVAPD Z3, Z4
	VMOVUPD libmPTINVC<>(SB), Z5
	VPERMI2PD libmPTINVC<>+64(SB), Z5, Z4 // invc_j
	VMOVAPD Z3, Z6
	VMOVUPD libmPTLOGH<>(SB), Z5
	VPERMI2PD libmPTLOGH<>+64(SB), Z5, Z6 // hi_j
	VMOVUPD libmPTLOGL<>(SB), Z5
	VPERMI2PD libmPTLOGL<>+64(SB), Z5, Z3 // lo_j
	VFMSUB213PD libmE8<>(SB), Z1, Z4 // r = m·invc_j - 1, exact
	VADDPD Z6, Z2, Z2 // A, exact
` + log2Poly + `	VFMADD231PD Z6, Z4, Z3 // B
	VMULPD Z12, Z2, Z8 // Zh
	VMOVAPD Z8, Z9
	VFMSUB231PD Z12, Z2, Z9 // y·A - Zh, exact
	VFMADD231PD Z12, Z3, Z9 // Zl
	VADDPD Z9, Z8, Z0
` + expRange("EXP2LO", "EXP2HI") + `	VADDPD libmETMAGIC<>(SB), Z0, Z3 // 1.5·2^48 + n
	VSUBPD libmETMAGIC<>(SB), Z3, Z1 // n
	VSUBPD Z1, Z8, Z4
	VADDPD Z9, Z4, Z4
	VMULPD libmLN2F<>(SB), Z4, Z4 // s
` + expTable + expTail + roundCheck512

// bigLn returns ln v to 200 bits: 2·atanh(u), u = (v - 1)/(v + 1), by
// its series.
func bigLn(v float64) *big.Float {
	const prec = 200
	f := func(x float64) *big.Float { return new(big.Float).SetPrec(prec).SetFloat64(x) }
	u := f(v - 1)
	u.Quo(u, f(v+1)) // v - 1 is exact for v in [1/2, 2]
	u2 := new(big.Float).SetPrec(prec).Mul(u, u)
	sum, term := f(0), new(big.Float).SetPrec(prec).Set(u)
	for k := range 200 {
		sum.Add(sum, new(big.Float).SetPrec(prec).Quo(term, f(float64(2*k+1))))
		term.Mul(term, u2)
	}
	return sum.Mul(sum, f(2))
}

// rsqrtBody: Z0 = x in (a positive normal float64), Z0 = 1/√x out,
// within 2^-52 of it: y0 = VRSQRT14PD's estimate (within 2^-14), e = 1 -
// x·y0² (|e| <= 2^-13), and 1/√x = y0·(1 - e)^(-1/2) = y0·(1 + e/2 +
// 3e²/8 + 5e³/16) to within 2^-54 (the next term is 35e^4/128). The
// scalar code's two roundings (√x, then 1/√x) leave it within 1 ULP, and
// no division is needed.
const rsqrtBody = `	VRSQRT14PD Z0, Z1 // y0
	VMULPD Z1, Z0, Z2
	VFNMADD213PD libmE8<>(SB), Z1, Z2 // e
	VMOVUPD libmRSQ3<>(SB), Z3
	VFMADD213PD libmRSQ2<>(SB), Z2, Z3
	VFMADD213PD libmE0<>(SB), Z2, Z3 // 1/2 + 3e/8 + 5e²/16
	VMULPD Z2, Z1, Z2 // y0·e
	VFMADD231PD Z3, Z2, Z1
	VMOVAPD Z1, Z0
`

// sincosReduce: Z0 = x in; it exits to done unless |x| <= 2^20 in every
// lane (NaN stops too); out: |x| = kπ/16 + r with k = |x|·16/π rounded
// (through the bits of 1.5·2^52 + k) and |r| <= π/32 (r = |x| - k·P1 -
// k·P2 - k·P3, P1 + P2 + P3 = π/16: P1 and P2 of 28 bits, so that k·P1
// and k·P2 are exact for k < 2^23, and |x| - k·P1 is too; r within 2^-52
// of its value), Z5 = S and Z3 = C, the sine and cosine of jπ/16 for j = k
// mod 16 (the tables SINTAB and COSTAB: exact for j = 0 and 8, so that
// sin near kπ and cos near π/2 + kπ do not cancel), Z8 = sin r and Z9 =
// cos r (Taylor series to r^9 and r^8: the rest below 2^-55), Z7 = x's
// sign xor k's bit 4 (the half turn kπ/16 passes: it changes both signs)
// at the sign bit, Z10 = k's bit 4 alone. sin x = ±(S·cos r + C·sin r)
// and cos x = ±(C·cos r - S·sin r), on |x| so that sin(-0) is -0; they
// cancel at most one bit (the sum is at least sin(π/32) where neither S
// nor C is 0), and lie within 2^-49 of their value.
const sincosReduce = `	VANDPD libmSIGN<>(SB), Z0, Z7
	VANDPD libmABS<>(SB), Z0, Z0
	VCMPPD $2, libmTRIG20<>(SB), Z0, K2 // |x| <= 2^20 (false for NaN)
	KMOVB K2, AX
	CMPL AX, $0xFF
	JNE  done
	VMOVUPD libmSC16PI<>(SB), Z3
	VFMADD213PD libmSCMAGIC<>(SB), Z0, Z3 // 1.5·2^52 + k
	VSUBPD libmSCMAGIC<>(SB), Z3, Z1 // k
	VFNMADD231PD libmSCP1<>(SB), Z1, Z0
	VFNMADD231PD libmSCP2<>(SB), Z1, Z0
	VFNMADD231PD libmSCP3<>(SB), Z1, Z0 // r
	VPSLLQ $59, Z3, Z10
	VPANDQ libmSIGN<>(SB), Z10, Z10 // k's bit 4
	VXORPD Z10, Z7, Z7
	VMOVAPD Z3, Z5
	VMOVUPD libmSINTAB<>(SB), Z2
	VPERMI2PD libmSINTAB<>+64(SB), Z2, Z5 // S
	VMOVUPD libmCOSTAB<>(SB), Z2
	VPERMI2PD libmCOSTAB<>+64(SB), Z2, Z3 // C
	VMULPD Z0, Z0, Z2 // r²
	VMOVUPD libmSCS4<>(SB), Z8
	VFMADD213PD libmSCS3<>(SB), Z2, Z8
	VFMADD213PD libmSCS2<>(SB), Z2, Z8
	VFMADD213PD libmSCS1<>(SB), Z2, Z8
	VMULPD Z0, Z2, Z9 // r³
	VFMADD213PD Z0, Z9, Z8 // sin r
	VMOVUPD libmSCC4<>(SB), Z9
	VFMADD213PD libmSCC3<>(SB), Z2, Z9
	VFMADD213PD libmSCC2<>(SB), Z2, Z9
	VFMADD213PD libmSCC1<>(SB), Z2, Z9
	VFMADD213PD libmE8<>(SB), Z2, Z9 // cos r
`

// tanTail: tan x = ±(S·cos r + C·sin r)/(C·cos r - S·sin r) with x's sign
// (the half turns cancel), within 2^-48 of its value; the denominator
// cancels no more than the numerator (it is cos x).
const tanTail = `	VMULPD Z8, Z3, Z0
	VFMADD231PD Z9, Z5, Z0 // sin |x|, but the half turns' sign
	VMULPD Z9, Z3, Z1
	VFNMADD231PD Z8, Z5, Z1 // cos |x|, likewise
	VDIVPD Z1, Z0, Z0
	VXORPD Z10, Z7, Z7 // x's sign
	VXORPD Z7, Z0, Z0
`

// piOver16 is π/16 as P1 + P2 + P3: P1 and P2 of 28 significant bits,
// P3 the rest rounded to float64 (sincosReduce).
var piOver16 = func() [3]float64 {
	pi, _, err := big.ParseFloat("3.14159265358979323846264338327950288419716939937510582097494459230781640628620899863", 10, 300, big.ToNearestEven)
	if err != nil {
		log.Fatal(err)
	}
	rest := pi.Quo(pi, big.NewFloat(16))
	var p [3]float64
	for i := range p {
		v, _ := rest.Float64()
		if i < 2 {
			e := math.Ilogb(v)
			v = math.Round(math.Ldexp(v, 27-e)) // 28 bits
			v = math.Ldexp(v, e-27)
		}
		p[i] = v
		rest.Sub(rest, new(big.Float).SetFloat64(v))
	}
	return p
}()

// atan2Core: Z0 = y, Z12 = x in, Z0 = atan2(y, x) out, within 2^-50 of
// it; it exits to done where a lane has y or x NaN, ±0 or ±Inf, or
// min(|x|, |y|) below 2^-100 of the other (a result that is no normal
// float32). With a = min(|x|, |y|), b = max: q = a/b in (0, 1] is
// estimated (VRCP14PD, within 2^-14) to pick j = floor(16q) (at most 15)
// and c_j from the table ATC (0, then (j + 1/2)/16), and atan(q) =
// atan(c_j) (the table ATV) + atan(t), t = (a - c_j·b)/(b + c_j·a) (two
// FMAs, one rounding each, then one division), |t| <= 1/16 (1/32 where
// j > 0, whose sum then cancels under one bit), by its Taylor series to
// t^11 (the rest below 2^-51). Then π/2 - r where |y| > |x|, π - r where
// x < 0 (neither cancels: r <= π/4, then π/2), and y's sign.
const atan2Core = `	VFPCLASSPDZ $0x9F, Z0, K2 // y NaN, ±0 or ±Inf
	VFPCLASSPDZ $0x9F, Z12, K3 // x likewise
	KORB K3, K2, K2
	KMOVB K2, AX
	TESTL AX, AX
	JNE  done
	VANDPD libmABS<>(SB), Z0, Z1 // |y|
	VANDPD libmABS<>(SB), Z12, Z2 // |x|
	VMINPD Z2, Z1, Z3 // a
	VMAXPD Z2, Z1, Z4 // b
	VMULPD libmTWOM100<>(SB), Z4, Z5
	VCMPPD $1, Z5, Z3, K2 // a < b·2^-100
	KMOVB K2, AX
	TESTL AX, AX
	JNE  done
	VRCP14PD Z4, Z5
	VMULPD Z3, Z5, Z5 // q, within 2^-13
	VMULPD libmSIXTEEN<>(SB), Z5, Z5
	VMINPD libmFIFTEEN<>(SB), Z5, Z5
	VRNDSCALEPD $1, Z5, Z5 // j
	VADDPD libmSCMAGIC<>(SB), Z5, Z5 // 1.5·2^52 + j
	VMOVAPD Z5, Z6
	VMOVUPD libmATC<>(SB), Z10
	VPERMI2PD libmATC<>+64(SB), Z10, Z6 // c_j
	VMOVUPD libmATV<>(SB), Z10
	VPERMI2PD libmATV<>+64(SB), Z10, Z5 // atan(c_j)
	VMOVAPD Z3, Z7
	VFNMADD231PD Z6, Z4, Z7 // a - c_j·b
	VFMADD231PD Z6, Z3, Z4 // b + c_j·a
	VDIVPD Z4, Z7, Z7 // t
	VMULPD Z7, Z7, Z8 // t²
	VMOVUPD libmAT11<>(SB), Z9
	VFMADD213PD libmAT9<>(SB), Z8, Z9
	VFMADD213PD libmAT7<>(SB), Z8, Z9
	VFMADD213PD libmAT5<>(SB), Z8, Z9
	VFMADD213PD libmAT3<>(SB), Z8, Z9
	VMULPD Z7, Z8, Z8 // t³
	VFMADD213PD Z7, Z8, Z9 // atan(t)
	VADDPD Z9, Z5, Z7 // r = atan(q)
	VCMPPD $14, Z2, Z1, K2 // |y| > |x|: π/2 - r
	VMOVUPD libmPIO2<>(SB), Z10
	VSUBPD Z7, Z10, K2, Z7
	VPMOVQ2M Z12, K3 // x < 0: π - r
	VMOVUPD libmPI<>(SB), Z10
	VSUBPD Z7, Z10, K3, Z7
	VANDPD libmSIGN<>(SB), Z0, Z10
	VORPD Z10, Z7, Z0 // y's sign
`

// atanCore is atan2Core for x = 1 (Z0 = y in, Z0 = atan(y) out), with
// the same intervals and series, arranged for fewer and shorter chains
// of dependent instructions (the loop's time follows them more than its
// count of instructions: dropping the division and four of the series'
// multiply-adds, timing only, took a fifth off it). q's estimate is
// taken below q, VRCP14PD(b)·(1 - 2^-13)·a (the product made beside
// VRCP14PD), so that VRNDSCALEPD's floor to a multiple of 1/16 gives
// j/16 with j at most 15 and no VMINPD; c_j is j/16 + min(j/16, 1/32)
// (no table: 0, then (j + 1/2)/16), and 2^48 + j/16 holds j in its low
// bits for atan(c_j)'s table. The numerator a - c_j·b changes sign where
// |y| > 1 (beside the denominator's multiply-add), so the division gives
// σt, σ = -1 there; w = π/2 - atan(c_j) there and atan(c_j) elsewhere,
// and w + σt, are made while the series is; the series in s = t² is
// Estrin's, (AT3 + AT5·s) + s²·((AT7 + AT9·s) + s²·AT11), two
// multiply-adds deep rather than four; and atan y = (w + σt) + σt·s·P(s)
// is one last multiply-add. With |t| at most 1/32 (1/16 where j = 0; an
// estimate that puts q in the interval below its own adds at most
// 2^-12·q) and w at least atan(1/16) wherever σt is not the whole sum,
// each rounding is within 2^-52 of the result, 2^-50 in all: far inside
// roundCheck512's margin. BenchmarkLibm's 16384 float32 on one core:
// 12.6–12.8 → 11.8–11.9 µs (the lowest of ten, twice).
const atanCore = `	VFPCLASSPDZ $0x9F, Z0, K2 // y NaN, ±0 or ±Inf
	KMOVB K2, AX
	TESTL AX, AX
	JNE  done
	VANDPD libmABS<>(SB), Z0, Z1 // |y|
	VMOVUPD libmE8<>(SB), Z2
	VMINPD Z2, Z1, Z3 // a
	VMAXPD Z2, Z1, Z4 // b
	VMULPD libmTWOM100<>(SB), Z4, Z5
	VCMPPD $1, Z5, Z3, K2 // a < b·2^-100
	KMOVB K2, AX
	TESTL AX, AX
	JNE  done
	VRCP14PD Z4, Z5
	VMULPD libmATLO<>(SB), Z3, Z6 // (1 - 2^-13)·a
	VMULPD Z6, Z5, Z5 // below q, 1 at most
	VRNDSCALEPD $0x41, Z5, Z5 // j/16: floor to a multiple of 1/16
	VMINPD libmATHALF<>(SB), Z5, Z6
	VADDPD Z5, Z6, Z6 // c_j: 0, or j/16 + 1/32
	VADDPD libmLTMAGIC<>(SB), Z5, Z5 // 2^48 + j/16: j in the low bits
	VMOVUPD libmATV<>(SB), Z10
	VPERMI2PD libmATV<>+64(SB), Z10, Z5 // atan(c_j)
	VCMPPD $14, Z2, Z1, K3 // |y| > 1: σ = -1
	VMOVUPD libmPIO2<>(SB), Z10
	VSUBPD Z5, Z10, K3, Z5 // w
	VMOVAPD Z3, Z7
	VFNMADD231PD Z6, Z4, Z7 // a - c_j·b
	VFMADD231PD Z6, Z3, Z4 // b + c_j·a
	VXORPD libmSIGN<>(SB), Z7, K3, Z7 // σ(a - c_j·b)
	VDIVPD Z4, Z7, Z7 // σt
	VMULPD Z7, Z7, Z8 // s
	VMULPD Z8, Z8, Z9 // s²
	VMOVUPD libmAT9<>(SB), Z11
	VFMADD213PD libmAT7<>(SB), Z8, Z11 // AT7 + AT9·s
	VMOVUPD libmAT5<>(SB), Z12
	VFMADD213PD libmAT3<>(SB), Z8, Z12 // AT3 + AT5·s
	VMOVUPD libmAT11<>(SB), Z13
	VFMADD213PD Z11, Z9, Z13
	VFMADD213PD Z12, Z9, Z13 // P(s)
	VMULPD Z7, Z8, Z8 // σt·s
	VADDPD Z7, Z5, Z5 // w + σt
	VFMADD213PD Z5, Z8, Z13 // w + σ atan t
	VANDPD libmSIGN<>(SB), Z0, Z10
	VORPD Z10, Z13, Z0 // y's sign
`

// asinPoly: Z0 = x in; out: Z5 = asin(t) for t = |x| where |x| <= 1/2
// ("near"), t = √((1 - |x|)/2) elsewhere ("far": K3, and Z7 all ones),
// Z12 = x's sign. It exits to done unless |x| <= 1 in every lane (NaN
// too). asin t = t + t·u·P(u), u = t² (asinSeries), within 2^-50 of it;
// (1 - |x|)/2 is exact for a float32 x, and the one square root, skipped
// where no lane of the group is far, is correctly rounded. asin x = ±(π/2
// - 2·asin t) far (no cancellation: 2·asin t <= π/3), and acos x = π/2 -
// asin x near, 2·asin t far for x > 0 and π - 2·asin t for x < 0; each
// within 2^-49 of its value, and asinF64 and acosF64 within 3 ULP of
// theirs, far inside roundCheck512's margin. With no division and no
// arctangent, this took 20-24 µs for 16384 float32 in [-1/2, 1/2) on one
// core where arctan2 of x and √(1 - x²) (atan2Core) took 50-55 µs.
const asinPoly = `	VANDPD libmABS<>(SB), Z0, Z1 // |x|
	VCMPPD $2, libmE8<>(SB), Z1, K2 // |x| <= 1
	KMOVB K2, AX
	CMPL AX, $0xFF
	JNE  done
	VANDPD libmSIGN<>(SB), Z0, Z12
	VCMPPD $14, libmE0<>(SB), Z1, K3 // far: |x| > 1/2
	VPMOVM2Q K3, Z7
	VMULPD Z1, Z1, Z2 // u = x²
	VMOVAPD Z1, Z4 // t = |x|
	SKIPNONE Y7, nofar
	VMOVUPD libmE8<>(SB), Z3
	VSUBPD Z1, Z3, Z3
	VMULPD libmE0<>(SB), Z3, K3, Z2 // u = (1 - |x|)/2
	VSQRTPD Z2, K3, Z4 // t = √u
nofar:
	VMOVUPD libmAS13<>(SB), Z5
	VFMADD213PD libmAS12<>(SB), Z2, Z5
	VFMADD213PD libmAS11<>(SB), Z2, Z5
	VFMADD213PD libmAS10<>(SB), Z2, Z5
	VFMADD213PD libmAS9<>(SB), Z2, Z5
	VFMADD213PD libmAS8<>(SB), Z2, Z5
	VFMADD213PD libmAS7<>(SB), Z2, Z5
	VFMADD213PD libmAS6<>(SB), Z2, Z5
	VFMADD213PD libmAS5<>(SB), Z2, Z5
	VFMADD213PD libmAS4<>(SB), Z2, Z5
	VFMADD213PD libmAS3<>(SB), Z2, Z5
	VFMADD213PD libmAS2<>(SB), Z2, Z5
	VFMADD213PD libmAS1<>(SB), Z2, Z5
	VFMADD213PD libmAS0<>(SB), Z2, Z5 // P(u)
	VMULPD Z2, Z4, Z6 // t·u
	VFMADD213PD Z4, Z6, Z5 // asin t
`

// asinpBody is float32 asin on asinPoly.
const asinpBody = asinPoly + `	VADDPD Z5, Z5, K3, Z5 // far: 2·asin t
	VMOVUPD libmPIO2<>(SB), Z8
	VSUBPD Z5, Z8, K3, Z5 // far: π/2 - 2·asin t
	VORPD Z12, Z5, Z0 // x's sign
`

// acospBody is float32 acos on asinPoly.
const acospBody = asinPoly + `	VORPD Z12, Z5, Z6 // near: asin x
	VMOVUPD libmPIO2<>(SB), Z8
	VSUBPD Z6, Z8, Z0 // near: π/2 - asin x
	VADDPD Z5, Z5, Z9 // far: 2·asin t
	VPMOVQ2M Z12, K2 // x < 0
	KANDB K3, K2, K2
	VMOVUPD libmPI<>(SB), Z10
	VSUBPD Z9, Z10, K2, Z9 // far, x < 0: π - 2·asin t
	VMOVAPD Z9, K3, Z0
`

// logTables writes log2Table's tables: invc_j = 16/j and log2(1/invc_j)
// at j mod 16 for j = 12..24.
func logTables(b *bytes.Buffer) {
	inv, lg := make([]uint64, 16), make([]uint64, 16)
	for j := 12; j <= 24; j++ {
		c := 16 / float64(j)
		l := -math.Log2(c)
		if l == 0 {
			l = 0 // +0, not -0
		}
		inv[j%16], lg[j%16] = math.Float64bits(c), math.Float64bits(l)
	}
	writeTable(b, "LTINVC", inv)
	writeTable(b, "LTLOGC", lg)
	e := make([]uint64, 16)
	for j := range e {
		e[j] = math.Float64bits(math.Exp2(float64(j) / 16))
	}
	writeTable(b, "ETAB", e)
	// sincosReduce's: sin and cos of jπ/16, exact at 0 and π/2.
	st, ct := make([]uint64, 16), make([]uint64, 16)
	for j := range 16 {
		sn := math.Sin(float64(j%8) * math.Pi / 16) // sin(jπ/16) = sin((16-j)π/16)
		cs := math.Sin(float64(8-j%8) * math.Pi / 16)
		switch {
		case j == 0:
			sn, cs = 0, 1
		case j == 8:
			sn, cs = 1, 0
		case j > 8: // sin(jπ/16) = cos((j-8)π/16), cos(jπ/16) = -sin((j-8)π/16)
			sn, cs = cs, -sn
		}
		st[j], ct[j] = math.Float64bits(sn), math.Float64bits(cs)
	}
	writeTable(b, "SINTAB", st)
	// atan2Core's: c_j and atan(c_j).
	ac, av := make([]uint64, 16), make([]uint64, 16)
	for j := 1; j < 16; j++ {
		c := (float64(j) + 0.5) / 16
		ac[j], av[j] = math.Float64bits(c), math.Float64bits(math.Atan(c))
	}
	writeTable(b, "ATC", ac)
	writeTable(b, "ATV", av)
	writeTable(b, "COSTAB", ct)
	// powtBody's: invc_j = 16/j to 29 bits, log2(1/invc_j) = hi + lo.
	pinv, ph, pl := make([]uint64, 16), make([]uint64, 16), make([]uint64, 16)
	ln2 := bigLn(2)
	for j := 12; j <= 24; j++ {
		c := math.Round(16/float64(j)*(1<<28)) / (1 << 28)
		l := bigLn(c)
		l.Quo(l, ln2).Neg(l)
		lf, _ := l.Float64()
		hi := math.Round(lf*(1<<44)) / (1 << 44)
		lo, _ := l.Sub(l, new(big.Float).SetFloat64(hi)).Float64()
		pinv[j%16], ph[j%16], pl[j%16] = math.Float64bits(c), math.Float64bits(hi+0), math.Float64bits(lo+0)
	}
	writeTable(b, "PTINVC", pinv)
	writeTable(b, "PTLOGH", ph)
	writeTable(b, "PTLOGL", pl)
}

// writeTable writes a table of 64-bit values.
func writeTable(b *bytes.Buffer, name string, v []uint64) {
	fmt.Fprintln(b)
	for i, x := range v {
		fmt.Fprintf(b, "DATA libm%s<>+%d(SB)/8, $%#016x\n", name, 8*i, x)
	}
	fmt.Fprintf(b, "GLOBL libm%s<>(SB), RODATA|NOPTR, $%d\n", name, 8*len(v))
}

// binFuncs are the loops of two operands (x = float64(a[i]), y =
// float64(b[i])): the AVX2 body reads x in Y0 and y in Y12; the AVX-512
// body of pow is written apart (see writeAVX512).
var binFuncs = []struct{ name, body, ref string }{
	{"pow", powHead + powRounds() + powTail, "math.Pow(x, y)"},
	{"atan2", atan2Body, "atan2F64(x, y)"},
	{"powh", powhBody, "powF64(x, y)"},
}

// powRounds is powRound for each of the four bits of yi, in turn.
func powRounds() string {
	var b strings.Builder
	for _, sh := range []int{63, 62, 61, 60} {
		b.WriteString(strings.ReplaceAll(powRound, "{{.}}", fmt.Sprint(sh)))
	}
	return b.String()
}

func main() {
	var b bytes.Buffer
	b.WriteString(`// Code generated by gen_libm.go; DO NOT EDIT.

//go:build amd64 && !purego

#include "textflag.h"
`)
	for _, c := range consts {
		writeData(&b, c.name, math.Float64bits(c.v), false)
	}
	for _, c := range iconsts {
		writeData(&b, c.name, c.v, strings.HasSuffix(c.name, "D"))
	}
	for _, f := range funcs {
		for _, e := range []struct {
			elem, load, store string
			size              int
		}{
			{"F32", "VCVTPS2PD (SI), Y0", "VCVTPD2PSY Y0, X0\n\tVMOVUPS X0, (DI)", 4},
			{"F64", "VMOVUPD (SI), Y0", "VMOVUPD Y0, (DI)", 8},
		} {
			if f.only != "" && f.only != e.elem {
				continue
			}
			name := f.name + e.elem + "AVX2"
			t := strings.ToLower(e.elem[:1]) + "loat" + e.elem[1:]
			fmt.Fprintf(&b, `
// func %[1]s(d, a []%[2]s) int
//
// sets d[i] = %[2]s(%[3]s), x = float64(a[i]), for the first groups of four elements, up to
// len(d) rounded down to a multiple of 4, and returns how many it set: it
// stops before a group with a lane the scalar code takes another path for.
TEXT ·%[1]s(SB), NOSPLIT, $0-56
	MOVQ d_base+0(FP), DI
	MOVQ d_len+8(FP), CX
	MOVQ a_base+24(FP), SI
	XORQ BX, BX
	SHRQ $2, CX
	JZ   done
loop:
	%[4]s
%[5]s	%[6]s
	ADDQ $%[7]d, SI
	ADDQ $%[7]d, DI
	ADDQ $4, BX
	DECQ CX
	JNZ  loop
done:
	MOVQ BX, ret+48(FP)
	VZEROUPPER
	RET
`, name, t, f.ref, e.load, avx2(f.body), e.store, 4*e.size)
		}
	}
	for _, f := range binFuncs {
		for _, e := range []struct {
			elem, load, store string
			size              int
		}{
			{"F32", "VCVTPS2PD (SI), Y0\n\tVCVTPS2PD (DX), Y12", "VCVTPD2PSY Y0, X0\n\tVMOVUPS X0, (DI)", 4},
			{"F64", "VMOVUPD (SI), Y0\n\tVMOVUPD (DX), Y12", "VMOVUPD Y0, (DI)", 8},
		} {
			name := f.name + e.elem + "AVX2"
			t := strings.ToLower(e.elem[:1]) + "loat" + e.elem[1:]
			fmt.Fprintf(&b, `
// func %[1]s(d, a, b []%[2]s) int
//
// sets d[i] = %[2]s(%[7]s), x = float64(a[i]), y = float64(b[i]), for the
// first groups of four elements, as the loops above, on the inputs its
// body takes in gen_libm.go (the others stop it).
TEXT ·%[1]s(SB), NOSPLIT, $0-80
	MOVQ d_base+0(FP), DI
	MOVQ d_len+8(FP), CX
	MOVQ a_base+24(FP), SI
	MOVQ b_base+48(FP), DX
	XORQ BX, BX
	SHRQ $2, CX
	JZ   done
loop:
	%[3]s
%[4]s	%[5]s
	ADDQ $%[6]d, SI
	ADDQ $%[6]d, DX
	ADDQ $%[6]d, DI
	ADDQ $4, BX
	DECQ CX
	JNZ  loop
done:
	MOVQ BX, ret+72(FP)
	VZEROUPPER
	RET
`, name, t, e.load, avx2(f.body), e.store, 4*e.size, f.ref)
		}
	}
	writeAVX512(&b)
	asm, tabs := alignTables(broadcastConsts(b.Bytes()))
	if err := os.WriteFile("simd_libm_amd64.s", asm, 0o666); err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile("simd_libm_tabs_amd64.go", tabs, 0o666); err != nil {
		log.Fatal(err)
	}
}

// bcstOps are the EVEX instructions whose memory operand broadcastConsts
// may broadcast, by element size; bcstLoads are the loads it replaces by
// a broadcast load.
var (
	bcstOps = map[string]int{
		"VADDPD": 8, "VSUBPD": 8, "VMULPD": 8, "VDIVPD": 8, "VMINPD": 8, "VMAXPD": 8,
		"VFMADD213PD": 8, "VFMADD231PD": 8, "VFMSUB213PD": 8, "VFMSUB231PD": 8,
		"VFNMADD213PD": 8, "VFNMADD231PD": 8, "VCMPPD": 8, "VANDPD": 8, "VANDNPD": 8,
		"VORPD": 8, "VXORPD": 8, "VBLENDMPD": 8, "VPADDQ": 8, "VPSUBQ": 8, "VPANDQ": 8,
		"VPANDNQ": 8, "VPORQ": 8, "VPXORQ": 8, "VPCMPUQ": 8, "VPCMPQ": 8, "VPCMPGTQ": 8,
		"VPCMPEQQ": 8, "VPTESTNMQ": 8, "VPADDD": 4, "VPSUBD": 4, "VPANDD": 4, "VPORD": 4, "VPCMPUD": 4,
	}
	bcstLoads = map[string]struct {
		size int
		op   string
	}{
		"VMOVUPD": {8, "VBROADCASTSD"}, "VMOVDQU64": {8, "VPBROADCASTQ"},
		"VMOVUPS": {4, "VBROADCASTSS"}, "VMOVDQU32": {4, "VPBROADCASTD"},
	}
	dataLine  = regexp.MustCompile(`^DATA (\w+)<>\+(\d+)\(SB\)/(\d+), \$(\S+)$`)
	globlLine = regexp.MustCompile(`^GLOBL (\w+)<>\(SB\), \S+, \$(\d+)$`)
	constOp   = regexp.MustCompile(`^\t(V\w+) (.*\b(\w+)<>\(SB\).*)$`)
)

// broadcastConsts rewrites the AVX-512 instructions of asm that read a
// 64-byte constant whose lanes are all one value to read that value
// alone, broadcast (embedded broadcast, .BCST, or a broadcast load): the
// linker aligns data to 32 bytes only, and a 64-byte operand that
// straddles two cache lines is read twice. Where rodata began at 32 mod
// 64, float32 log10 of 10^6 elements took 0.70 against 0.58 ms.
func broadcastConsts(asm []byte) []byte {
	type datum struct {
		off, size int
		val       string
	}
	data := map[string][]datum{}
	size := map[string]int{}
	lines := strings.Split(string(asm), "\n")
	for _, l := range lines {
		if m := dataLine.FindStringSubmatch(l); m != nil {
			off, _ := strconv.Atoi(m[2])
			n, _ := strconv.Atoi(m[3])
			data[m[1]] = append(data[m[1]], datum{off, n, m[4]})
		} else if m := globlLine.FindStringSubmatch(l); m != nil {
			size[m[1]], _ = strconv.Atoi(m[2])
		}
	}
	// uniform reports whether the 64-byte constant name is one value of
	// es bytes in every lane.
	uniform := func(name string, es int) bool {
		ds := data[name]
		if size[name] != 64 || len(ds) != 64/es {
			return false
		}
		for i, d := range ds {
			if d.off != i*es || d.size != es || d.val != ds[0].val {
				return false
			}
		}
		return true
	}
	zmm := regexp.MustCompile(`\bZ\d+\b`)
	for i, l := range lines {
		m := constOp.FindStringSubmatch(l)
		if m == nil || !zmm.MatchString(m[2]) {
			continue
		}
		if ld, ok := bcstLoads[m[1]]; ok && uniform(m[3], ld.size) {
			lines[i] = "\t" + ld.op + " " + m[2]
		} else if es, ok := bcstOps[m[1]]; ok && uniform(m[3], es) {
			lines[i] = "\t" + m[1] + ".BCST " + m[2]
		}
	}
	return []byte(strings.Join(lines, "\n"))
}

// tableRef matches an AVX-512 instruction's operand that is a constant,
// at an offset or none.
var tableRef = regexp.MustCompile(`\b(\w+)<>(\+(\d+))?\(SB\)`)

// alignTables moves the constants that the AVX-512 loops still read 64
// bytes at a time (after broadcastConsts: the lookup tables) to a copy
// that starts on a cache line, libmTabs (simd_libm_amd64.go), whose
// address a function loads into R12 first: the linker would align them
// to 32 bytes only, and each read of a straddling table is two. It
// returns the new assembly and the Go file that holds the tables'
// values, libmTabSrc, each at a multiple of 64 bytes. The DATA stays for
// the AVX2 loops.
func alignTables(asm []byte) ([]byte, []byte) {
	if bytes.Contains(asm, []byte("R12")) {
		log.Fatal("alignTables: the loops use R12 already")
	}
	lines := strings.Split(string(asm), "\n")
	values := map[string][]string{}
	for _, l := range lines {
		if m := dataLine.FindStringSubmatch(l); m != nil && m[3] == "8" {
			values[m[1]] = append(values[m[1]], m[4])
		}
	}
	zmm := regexp.MustCompile(`\bZ\d+\b`)
	offs := map[string]int{}
	var order []string
	fn := -1 // the line of the current function's TEXT
	uses := map[int]bool{}
	for i, l := range lines {
		if strings.HasPrefix(l, "TEXT ") {
			fn = i
			continue
		}
		if strings.HasPrefix(l, "DATA ") || strings.HasPrefix(l, "GLOBL ") || !zmm.MatchString(l) ||
			strings.Contains(l, ".BCST") || strings.Contains(l, "BROADCAST") {
			continue
		}
		lines[i] = tableRef.ReplaceAllStringFunc(l, func(ref string) string {
			m := tableRef.FindStringSubmatch(ref)
			if _, ok := offs[m[1]]; !ok {
				if len(values[m[1]])%8 != 0 || len(values[m[1]]) == 0 {
					log.Fatalf("alignTables: %s is not whole 64-byte rows of 8-byte values", m[1])
				}
				n := 0
				for _, t := range order {
					n += 8 * len(values[t])
				}
				offs[m[1]] = n
				order = append(order, m[1])
			}
			k, _ := strconv.Atoi(m[3])
			uses[fn] = true
			return fmt.Sprintf("%d(R12)", offs[m[1]]+k)
		})
	}
	for i, l := range lines {
		if uses[i] {
			lines[i] = l + "\n\tMOVQ ·libmTabs(SB), R12 // the tables (alignTables)"
		}
	}
	var g bytes.Buffer
	g.WriteString(`// Code generated by gen_libm.go; DO NOT EDIT.

//go:build amd64 && !purego

package cpu

// libmTabSrc holds the lookup tables of the AVX-512 loops, each at a
// multiple of 64 bytes; they read them from libmTabs, a copy aligned to
// 64 bytes (see alignTables in gen_libm.go).
var libmTabSrc = [...]uint64{
`)
	for _, t := range order {
		fmt.Fprintf(&g, "\t// %s at %d\n", t, offs[t])
		for i, v := range values[t] {
			if i%4 == 0 {
				g.WriteString("\t")
			}
			g.WriteString(v + ",")
			if i%4 == 3 || i == len(values[t])-1 {
				g.WriteString("\n")
			} else {
				g.WriteString(" ")
			}
		}
	}
	g.WriteString("}\n")
	return []byte(strings.Join(lines, "\n")), g.Bytes()
}

// avx2 expands the pseudo-instruction of a body for the AVX2 loops:
// "SKIPNONE Yn, label" jumps to label when no lane of the mask Yn is set
// (no lane of the group takes the code up to the label).
func avx2(body string) string {
	var b strings.Builder
	for _, l := range strings.SplitAfter(body, "\n") {
		if f := strings.Fields(l); len(f) == 3 && f[0] == "SKIPNONE" {
			fmt.Fprintf(&b, "\tVMOVMSKPD %s AX\n\tTESTL AX, AX\n\tJZ   %s\n", f[1], f[2])
			continue
		}
		b.WriteString(l)
	}
	return b.String()
}

// writeData writes a 64-byte constant (a ZMM register's worth; the AVX2
// loops read the first 32 bytes): v in eight 64-bit lanes, or its low 32
// bits in sixteen 32-bit lanes.
func writeData(b *bytes.Buffer, name string, v uint64, dword bool) {
	fmt.Fprintln(b)
	if dword {
		for i := range 16 {
			fmt.Fprintf(b, "DATA libm%s<>+%d(SB)/4, $%#x\n", name, 4*i, uint32(v))
		}
	} else {
		for i := range 8 {
			fmt.Fprintf(b, "DATA libm%s<>+%d(SB)/8, $%#016x\n", name, 8*i, v)
		}
	}
	fmt.Fprintf(b, "GLOBL libm%s<>(SB), RODATA|NOPTR, $64\n", name)
}

// The AVX-512 loops.
//
// Each AVX-512 loop computes sixteen lanes per iteration: two groups of
// eight in ZMM registers, the second in the registers 16 above the
// first's, their instructions interleaved so that the two dependency
// chains overlap (pow's chain from x to the result is too long for the
// out-of-order window to overlap consecutive iterations by itself). The
// bodies are the AVX2 bodies above, translated by zmm instruction by
// instruction into the same IEEE operations on eight lanes: a comparison
// gives an opmask (K1), turned back into a lane mask (VPMOVM2Q) where
// the AVX2 code uses the mask as data; a blend on the sign of a mask
// moves the signs to K1 first (VPMOVQ2M); the checks that end the loop
// read K1's eight bits.

// unit is one AVX2 instruction, or a check (a mask read into AX, CMPL,
// JNE) kept together since it uses the flags.
type unit []string

// units splits an AVX2 body into its units.
func units(body string) []unit {
	var us []unit
	lines := strings.Split(strings.TrimRight(body, "\n"), "\n")
	for i := 0; i < len(lines); i++ {
		l := strings.TrimSpace(lines[i])
		if l == "" {
			continue
		}
		op := strings.Fields(l)[0]
		if op == "SKIPNONE" || strings.HasSuffix(l, ":") {
			us = append(us, unit{l}) // written once (see interleave)
			continue
		}
		if op == "VMOVMSKPD" || op == "VPMOVMSKB" || op == "KMOVB" {
			us = append(us, unit{l, strings.TrimSpace(lines[i+1]), strings.TrimSpace(lines[i+2])})
			i += 2
			continue
		}
		if op == "VPMINUD" { // with VPCMPEQD, VPMOVMSKB, CMPL and JNE: expBody's check of k
			us = append(us, unit{l, strings.TrimSpace(lines[i+1]), strings.TrimSpace(lines[i+2]), strings.TrimSpace(lines[i+3]), strings.TrimSpace(lines[i+4])})
			i += 4
			continue
		}
		us = append(us, unit{l})
	}
	return us
}

// reg renames the registers of an operand list for an AVX-512 copy off
// registers above the first: in an AVX2 list (avx512 false) Yn (four
// float64 lanes) becomes Z(n+off) and Xn (four int32 lanes) Y(n+off); in
// an AVX-512 list Zn and Yn move up by off, and the opmasks K2 and K3 by
// off/8 (K1 is each unit's own).
func reg(args string, off int, avx512 bool) string {
	var b strings.Builder
	for i := 0; i < len(args); i++ {
		c := args[i]
		if strings.IndexByte("XYZK", c) >= 0 && i+1 < len(args) && args[i+1] >= '0' && args[i+1] <= '9' &&
			(i == 0 || args[i-1] == ' ' || args[i-1] == ',' || args[i-1] == '(') {
			j := i + 1
			n := 0
			for j < len(args) && args[j] >= '0' && args[j] <= '9' {
				n = 10*n + int(args[j]-'0')
				j++
			}
			r := string(c)
			switch {
			case c == 'K':
				if n >= 2 {
					n += off / 8
				}
			case avx512:
				n += off
			case c == 'X':
				r, n = "Y", n+off
			case c == 'Y':
				r, n = "Z", n+off
			}
			fmt.Fprintf(&b, "%s%d", r, n)
			i = j - 1
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}

// zmmNames are the AVX-512 names of AVX2 instructions that have no
// EVEX form under their own name.
var zmmNames = map[string]string{
	"VPAND":       "VPANDQ",
	"VPANDN":      "VPANDNQ",
	"VPOR":        "VPORQ",
	"VPXOR":       "VPXORQ",
	"VMOVDQU":     "VMOVDQU64",
	"VROUNDPD":    "VRNDSCALEPD", // imm 3: toward zero, scale 2^0
	"VCVTPD2DQY":  "VCVTPD2DQ",
	"VCVTTPD2DQY": "VCVTTPD2DQ",
}

// zmmReg matches a ZMM register operand (not a constant's name with a Z).
var zmmReg = regexp.MustCompile(`(^|[ ,])Z[0-9]`)

// zmm translates one unit for the copy whose registers are off above
// the first's.
func zmm(u unit, off int) []string {
	if zmmReg.MatchString(u[0]) || strings.HasPrefix(u[0], "K") { // written for AVX-512
		var ls []string
		for _, l := range u {
			if i := strings.Index(l, "//"); i >= 0 {
				l = strings.TrimSpace(l[:i])
			}
			ls = append(ls, reg(l, off, true))
		}
		return ls
	}
	split := func(l string) (string, []string) {
		if i := strings.Index(l, "//"); i >= 0 {
			l = l[:i]
		}
		f := strings.SplitN(strings.TrimSpace(l), " ", 2)
		if len(f) == 1 {
			return f[0], nil
		}
		as := strings.Split(f[1], ",")
		for i := range as {
			as[i] = reg(strings.TrimSpace(as[i]), off, false)
		}
		return f[0], as
	}
	op, a := split(u[0])
	switch op {
	case "VMOVMSKPD": // VMOVMSKPD m, AX; CMPL AX, $15; JNE done
		return []string{"VPMOVQ2M " + a[0] + ", K1", "KMOVB K1, AX", "CMPL AX, $0xFF", "JNE done"}
	case "VPMINUD": // k+1022 <= 2045 unsigned in every lane
		return []string{"VPCMPUD $2, " + a[0] + ", " + a[1] + ", K1", "KMOVB K1, AX", "CMPL AX, $0xFF", "JNE done"}
	case "VCMPPD", "VPCMPGTQ", "VPCMPEQQ":
		n := len(a) - 1
		return []string{op + " " + strings.Join(a[:n], ", ") + ", K1", "VPMOVM2Q K1, " + a[n]}
	case "VBLENDVPD": // VBLENDVPD m, a, b, d: d = sign(m) ? a : b
		return []string{"VPMOVQ2M " + a[0] + ", K1", "VBLENDMPD " + a[1] + ", " + a[2] + ", K1, " + a[3]}
	}
	if len(u) != 1 {
		log.Fatalf("zmm: unexpected unit %q", u)
	}
	if z, ok := zmmNames[op]; ok {
		op = z
	}
	if a == nil {
		return []string{op}
	}
	return []string{op + " " + strings.Join(a, ", ")}
}

// interleave translates body for the two copies (registers 0-15 and
// 16-31) and interleaves their units.
func interleave(body string) string {
	var b strings.Builder
	for _, u := range cmpChecks(units(body)) {
		if strings.HasSuffix(u[0], ":") {
			b.WriteString(u[0] + "\n") // a label
			continue
		}
		if f := strings.Fields(u[0]); f[0] == "SKIPNONE" {
			// Both groups' masks: skip when neither has a lane set.
			r, label := strings.TrimSuffix(f[1], ","), f[2]
			fmt.Fprintf(&b, "\tVPMOVQ2M %s, K1\n\tVPMOVQ2M %s, K2\n\tKORTESTB K1, K2\n\tJZ   %s\n",
				reg(r, 0, false), reg(r, 16, false), label)
			continue
		}
		first, second := zmm(u, 0), zmm(u, 16)
		if m := mergeChecks(first, second); m != nil {
			first, second = m, nil
		}
		for _, l := range append(first, second...) {
			b.WriteString("\t" + l + "\n")
		}
	}
	return b.String()
}

// cmpChecks rewrites, in an AVX2 body's units, a compare into Ym whose
// only use is the next unit's check (VMOVMSKPD Ym, AX; CMPL AX, $15; JNE)
// as one AVX-512 unit: the compare into K1, then KMOVB, CMPL and JNE,
// which mergeChecks merges with the other copy's. Translated one by one,
// the pair took the mask to a vector register and back (VPMOVM2Q,
// VPMOVQ2M): two instructions a group. Ym must be dead after the check:
// the next unit that names it (as Ym or Zm) writes it whole (mov, load,
// arithmetic into it, not a fused multiply-add or a masked op, which read
// it), or none does.
func cmpChecks(us []unit) []unit {
	var out []unit
	for i := 0; i < len(us); i++ {
		u := us[i]
		l := u[0]
		if j := strings.Index(l, "//"); j >= 0 {
			l = strings.TrimSpace(l[:j])
		}
		f := strings.Fields(l)
		if len(u) == 1 && f[0] == "VCMPPD" && i+1 < len(us) && !zmmReg.MatchString(l) {
			args := strings.Split(strings.Join(f[1:], " "), ",")
			dst := strings.TrimSpace(args[len(args)-1])
			next := us[i+1]
			if len(next) == 3 && next[0] == "VMOVMSKPD "+dst+", AX" && next[1] == "CMPL AX, $15" &&
				strings.HasPrefix(next[2], "JNE") && deadAfter(us[i+2:], dst) {
				src := strings.Join(args[:len(args)-1], ",")
				src = yToZ.ReplaceAllString(src, "${1}Z$2")
				out = append(out, unit{"VCMPPD " + strings.TrimSpace(src) + ", K1", "KMOVB K1, AX", "CMPL AX, $0xFF", next[2]})
				i++
				continue
			}
		}
		out = append(out, u)
	}
	return out
}

// yToZ matches an AVX2 operand Yn (four float64 lanes), which the AVX-512
// loops hold in Zn.
var yToZ = regexp.MustCompile(`(^|[ ,])Y([0-9]+)`)

// deadAfter reports whether the register y (Yn of an AVX2 body) is not
// read by the units us before it is written whole (see cmpChecks).
// Between a SKIPNONE and its label, which it may jump to, a write does
// not count: any mention there is taken as a read.
func deadAfter(us []unit, y string) bool {
	n := strings.TrimPrefix(y, "Y")
	name := regexp.MustCompile(`(^|[ ,])[YZX]` + n + `($|[ ,])`)
	skipped := map[string]bool{} // the labels of the SKIPNONEs passed
	for _, u := range us {
		if f := strings.Fields(u[0]); f[0] == "SKIPNONE" {
			if name.MatchString(u[0]) {
				return false
			}
			skipped[f[2]+":"] = true
			continue
		}
		if skipped[u[0]] {
			delete(skipped, u[0])
			continue
		}
		branched := len(skipped) > 0
		for _, l := range u {
			if i := strings.Index(l, "//"); i >= 0 {
				l = l[:i]
			}
			l = strings.TrimSpace(l)
			if !name.MatchString(l) {
				continue
			}
			f := strings.Fields(l)
			args := strings.Split(strings.Join(f[1:], " "), ",")
			last := strings.TrimSpace(args[len(args)-1])
			srcs := strings.Join(args[:len(args)-1], ",")
			whole := !strings.Contains(f[0], "FMADD") && !strings.Contains(f[0], "FMSUB") &&
				!strings.Contains(f[0], "FNM") && !strings.Contains(f[0], "PERMI2") && !strings.Contains(srcs, "K")
			if whole && !branched && strings.TrimLeft(last, "YZX") == n && !name.MatchString(srcs) {
				return true
			}
			return false
		}
	}
	return true
}

// mergeChecks returns the two copies' checks of a unit as one, or nil
// when the unit is not a check. A check ends in KMOVB m, AX, then CMPL
// AX, $0xFF or TESTL AX, AX, then JNE: it leaves the loop unless every
// lane of m is set, or unless none is. Each copy's took three
// instructions and a branch of its own; the merged check tests both
// masks at once (KANDB and KORTESTB, or KORTESTB alone) with one branch.
// The second copy's K1 (each unit's own) becomes K6, and K7 holds the
// conjunction: no other unit uses them.
func mergeChecks(a, b []string) []string {
	n := len(a)
	if n < 3 || len(b) != n || !strings.HasPrefix(a[n-3], "KMOVB ") || !strings.HasPrefix(b[n-3], "KMOVB ") ||
		a[n-2] != b[n-2] || a[n-1] != b[n-1] || !strings.HasPrefix(a[n-1], "JNE ") {
		return nil
	}
	mask := func(l string) string { return strings.TrimSuffix(strings.Fields(l)[1], ",") }
	ka, kb := mask(a[n-3]), mask(b[n-3])
	var pre []string
	pre = append(pre, a[:n-3]...)
	for _, l := range b[:n-3] {
		pre = append(pre, k1To6.ReplaceAllString(l, "${1}K6"))
	}
	if kb == "K1" {
		kb = "K6"
	}
	if ka == kb {
		return nil // one mask for both copies
	}
	label := strings.TrimSpace(strings.TrimPrefix(a[n-1], "JNE "))
	switch a[n-2] {
	case "CMPL AX, $0xFF":
		return append(pre, "KANDB "+kb+", "+ka+", K7", "KORTESTB K7, K7", "JCC  "+label)
	case "TESTL AX, AX":
		return append(pre, "KORTESTB "+ka+", "+kb, "JNE  "+label)
	}
	return nil
}

// k1To6 matches the opmask K1 as an operand.
var k1To6 = regexp.MustCompile(`(^|[ ,])K1\b`)

// f16Lookup is the loop of a function's table on the float32 values
// that are float16 values (see libmF16 in simd_libm_amd64.go): a value
// is one when VCVTPS2PH (to nearest even) and VCVTPH2PS give back its
// bits, NaN payloads included, and then its float16 bits index the table.
const f16Lookup = `
// func f16LookupAVX512(d, a []float32, tab *float32) int
//
// sets d[i] = tab[h], h the float16 bits of a[i], for the first groups of
// sixteen elements that are all float16 values, up to len(d) rounded down
// to a multiple of 16, and returns how many it set.
TEXT ·f16LookupAVX512(SB), NOSPLIT, $0-64
	MOVQ d_base+0(FP), DI
	MOVQ d_len+8(FP), CX
	MOVQ a_base+24(FP), SI
	MOVQ tab+48(FP), DX
	XORQ BX, BX
	SHRQ $4, CX
	JZ   done
loop:
	VMOVDQU32 (SI), Z0
	VCVTPS2PH $0, Z0, Y1
	VCVTPH2PS Y1, Z2
	VPCMPEQD Z0, Z2, K1
	KORTESTW K1, K1
	JCC  done // not every lane is a float16 value
	VPMOVZXWD Y1, Z3
	VPGATHERDD (DX)(Z3*4), K1, Z4
	VMOVDQU32 Z4, (DI)
	ADDQ $64, SI
	ADDQ $64, DI
	ADDQ $16, BX
	DECQ CX
	JNZ  loop
done:
	MOVQ BX, ret+56(FP)
	VZEROUPPER
	RET
`

// lookup16 is the loop of a float16 operation's table of float16
// results (f16TreeTable's): sixteen indices are widened to 32 bits and
// gathered, four bytes each at tab + 2·index, and the low halves stored.
// A four-byte read at index 0xFFFF would pass the table's end by two
// bytes, so the lanes holding it are left out of the gather (K1) and
// keep tab[0xFFFF], put in every lane of Z4 first.
const lookup16 = `
// func lookup16AVX512(d, a []uint16, tab *[1 << 16]uint16) int
//
// sets d[i] = tab[a[i]] for the first groups of sixteen elements, up to
// len(d) rounded down to a multiple of 16, and returns how many it set.
TEXT ·lookup16AVX512(SB), NOSPLIT, $0-64
	MOVQ d_base+0(FP), DI
	MOVQ d_len+8(FP), CX
	MOVQ a_base+24(FP), SI
	MOVQ tab+48(FP), DX
	XORQ BX, BX
	SHRQ $4, CX
	JZ   done
	MOVWLZX 131070(DX), AX // tab[0xFFFF]
	VPBROADCASTD AX, Z5
	MOVL $0xFFFF, AX
	VPBROADCASTD AX, Z6
loop:
	VPMOVZXWD (SI), Z3
	VPCMPUD $4, Z6, Z3, K1 // index != 0xFFFF
	VMOVDQA32 Z5, Z4
	VPGATHERDD (DX)(Z3*2), K1, Z4
	VPMOVDW Z4, (DI)
	ADDQ $32, SI
	ADDQ $32, DI
	ADDQ $16, BX
	DECQ CX
	JNZ  loop
done:
	MOVQ BX, ret+56(FP)
	VZEROUPPER
	RET
`

// writeAVX512 writes the AVX-512 loops.
func writeAVX512(b *bytes.Buffer) {
	type elem struct {
		name, typ   string
		load, store func(r, off int, base string) string
		size        int
	}
	elems := []elem{
		{"F32", "float32",
			func(r, off int, base string) string { return fmt.Sprintf("VCVTPS2PD %d(%s), Z%d", off, base, r) },
			func(r, off int, base string) string {
				return fmt.Sprintf("VCVTPD2PS Z%d, Y%d\n\tVMOVUPS Y%d, %d(%s)", r, r, r, off, base)
			}, 4},
		{"F64", "float64",
			func(r, off int, base string) string { return fmt.Sprintf("VMOVUPD %d(%s), Z%d", off, base, r) },
			func(r, off int, base string) string { return fmt.Sprintf("VMOVUPD Z%d, %d(%s)", r, off, base) }, 8},
	}
	// emit1 writes the AVX-512 loop of a function of one operand.
	emit1 := func(name, body, ref string, e elem) {
		fmt.Fprintf(b, `
// func %[1]s(d, a []%[2]s) int
//
// sets d[i] = %[2]s(%[3]s), x = float64(a[i]), for the first groups of
// sixteen elements, up to len(d) rounded down to a multiple of 16, and
// returns how many it set: it stops before a group with a lane the
// scalar code takes another path for.
TEXT ·%[1]s(SB), NOSPLIT, $0-56
	MOVQ d_base+0(FP), DI
	MOVQ d_len+8(FP), CX
	MOVQ a_base+24(FP), SI
	XORQ BX, BX
	SHRQ $4, CX
	JZ   done
loop:
	%[4]s
	%[5]s
%[6]s	%[7]s
	%[8]s
	ADDQ $%[9]d, SI
	ADDQ $%[9]d, DI
	ADDQ $16, BX
	DECQ CX
	JNZ  loop
done:
	MOVQ BX, ret+48(FP)
	VZEROUPPER
	RET
`, name+e.name+"AVX512", e.typ, ref, e.load(0, 0, "SI"), e.load(16, 8*e.size, "SI"), interleave(to512(body)),
			e.store(0, 0, "DI"), e.store(16, 8*e.size, "DI"), 16*e.size)
	}
	// The AVX-512 loops whose body is not the AVX2 one's.
	bodies512One := map[string]string{"pow15": pow15Body512}
	for _, f := range funcs {
		body := f.body
		if b, ok := bodies512One[f.name]; ok {
			body = b
		}
		for _, e := range elems {
			if f.only == "" || f.only == e.name {
				emit1(f.name, body, f.ref, e)
			}
		}
	}
	logTables(b)
	for _, f := range funcs512 {
		emit1(f.name, f.body, f.ref, elems[0]) // float32
	}
	// tanh's loop again, which also prefetches the lines of pf, two an
	// iteration (one a group of eight), as tanhF32AVX2 does: the fused
	// kernels read their next block's operands while tanh computes.
	e := elems[0]
	fmt.Fprintf(b, `
// func tanhtPFF32AVX512(d, a []float32, pf []byte) int
//
// is tanhtF32AVX512 that also prefetches the lines of pf, two an
// iteration, while it computes.
TEXT ·tanhtPFF32AVX512(SB), NOSPLIT, $0-80
	MOVQ d_base+0(FP), DI
	MOVQ d_len+8(FP), CX
	MOVQ a_base+24(FP), SI
	MOVQ pf_base+48(FP), R10
	MOVQ pf_len+56(FP), R11
	ADDQ R10, R11
	XORQ BX, BX
	SHRQ $4, CX
	JZ   done
loop:
	CMPQ R10, R11
	JAE  pfskip
	PREFETCHT0 (R10)
	PREFETCHT0 64(R10)
	ADDQ $128, R10
pfskip:
	%[1]s
	%[2]s
%[3]s	%[4]s
	%[5]s
	ADDQ $64, SI
	ADDQ $64, DI
	ADDQ $16, BX
	DECQ CX
	JNZ  loop
done:
	MOVQ BX, ret+72(FP)
	VZEROUPPER
	RET
`, e.load(0, 0, "SI"), e.load(16, 32, "SI"), interleave(to512(tanhtBody)), e.store(0, 0, "DI"), e.store(16, 32, "DI"))
	b.WriteString(f16Lookup)
	b.WriteString(lookup16)
	// pow: the rounds after the first, and the reciprocal, are skipped
	// when no lane needs them (every bit of yi left is 0; y >= 0), which
	// changes no lane's result.
	var pow strings.Builder
	pow.WriteString(interleave(to512(powCheck512 + logBodyGo + powMul + expBody + powFrexp)))
	for i, sh := range []int{63, 62, 61, 60} {
		if i > 0 {
			fmt.Fprintf(&pow, "\tVPORQ Z11, Z27, Z5 // yi >> %d == 0 in every lane: no round left\n", i)
			fmt.Fprintf(&pow, "\tVPSRLQ $%d, Z5, Z5\n", i)
			pow.WriteString("\tVPTESTMQ Z5, Z5, K1\n\tKORTESTB K1, K1\n\tJZ   rounds\n")
		}
		pow.WriteString(interleave(strings.ReplaceAll(powRound512, "{{.}}", fmt.Sprint(sh))))
	}
	pow.WriteString("rounds:\n")
	pow.WriteString("\tVPORQ Z12, Z28, Z5 // y >= 0 in every lane: no reciprocal\n")
	pow.WriteString("\tVPMOVQ2M Z5, K1\n\tKORTESTB K1, K1\n\tJZ   recip\n")
	pow.WriteString(interleave(powRecip512))
	pow.WriteString("recip:\n")
	pow.WriteString(interleave(powSign512))
	bodies512 := map[string]string{"pow": pow.String()}
	// emit2 writes the AVX-512 loop of a function of two operands.
	emit2 := func(name, body, ref string, e elem) {
		fmt.Fprintf(b, `
// func %[1]s(d, a, b []%[2]s) int
//
// sets d[i] = %[2]s(%[11]s), x = float64(a[i]), y = float64(b[i]), for
// the first groups of sixteen elements, as the loops above, on the inputs
// its body takes in gen_libm.go (the others stop it).
TEXT ·%[1]s(SB), NOSPLIT, $0-80
	MOVQ d_base+0(FP), DI
	MOVQ d_len+8(FP), CX
	MOVQ a_base+24(FP), SI
	MOVQ b_base+48(FP), DX
	XORQ BX, BX
	SHRQ $4, CX
	JZ   done
loop:
	%[3]s
	%[4]s
	%[5]s
	%[6]s
%[7]s	%[8]s
	%[9]s
	ADDQ $%[10]d, SI
	ADDQ $%[10]d, DX
	ADDQ $%[10]d, DI
	ADDQ $16, BX
	DECQ CX
	JNZ  loop
done:
	MOVQ BX, ret+72(FP)
	VZEROUPPER
	RET
`, name+e.name+"AVX512", e.typ, e.load(0, 0, "SI"), e.load(16, 8*e.size, "SI"), e.load(12, 0, "DX"),
			e.load(28, 8*e.size, "DX"), body, e.store(0, 0, "DI"), e.store(16, 8*e.size, "DI"), 16*e.size, ref)
	}
	for _, f := range binFuncs {
		body, ok := bodies512[f.name]
		if !ok {
			body = interleave(to512(f.body))
		}
		for _, e := range elems {
			emit2(f.name, body, f.ref, e)
		}
	}
	for _, f := range binFuncs512 {
		emit2(f.name, interleave(to512(f.body)), f.ref, elems[0]) // float32
	}
}
