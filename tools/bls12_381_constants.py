#!/usr/bin/env python3
# SPDX-License-Identifier: MIT OR Apache-2.0
"""Generate src/bls12_381/constants.{h,c}: the BLS12-381 constants grove needs, in the
Montgomery form used by src/bls12_381/fp.h (6 x 64-bit limbs, R = 2^384), plus exponents and
small derived values. Run from the repository root:

    python3 tools/bls12_381_constants.py

Curve parameters, SSWU constants and isogeny coefficients are those of RFC 9380 (section 8.8,
appendix E); everything else is derived here and sanity-checked with plain affine arithmetic
(generators on the curve and of order r, endomorphism eigenvalues, twist and tower identities).
"""

import os
import sys

P = 0x1A0111EA397FE69A4B1BA7B6434BACD764774B84F38512BF6730D2A0F6B0F6241EABFFFEB153FFFFB9FEFFFFFFFFAAAB
R_ORDER = 0x73EDA753299D7D483339D80809A1D80553BDA402FFFE5BFEFFFFFFFF00000001
Z_BLS = -0xD201000000010000
RM = 1 << 384
M64 = (1 << 64) - 1

assert (Z_BLS - 1) ** 2 * (Z_BLS ** 4 - Z_BLS ** 2 + 1) // 3 + Z_BLS == P
assert Z_BLS ** 4 - Z_BLS ** 2 + 1 == R_ORDER


def inv(a, m=P):
    return pow(a % m, m - 2, m)


def sqrt_fp(a):
    s = pow(a, (P + 1) // 4, P)
    assert s * s % P == a % P
    return s


class F2:
    """a + b*u with u^2 = -1."""

    def __init__(self, a, b=0):
        self.a = a % P
        self.b = b % P

    @staticmethod
    def lift(o):
        return o if isinstance(o, F2) else F2(o)

    def __add__(s, o):
        o = F2.lift(o)
        return F2(s.a + o.a, s.b + o.b)

    __radd__ = __add__

    def __sub__(s, o):
        o = F2.lift(o)
        return F2(s.a - o.a, s.b - o.b)

    def __neg__(s):
        return F2(-s.a, -s.b)

    def __mul__(s, o):
        o = F2.lift(o)
        return F2(s.a * o.a - s.b * o.b, s.a * o.b + s.b * o.a)

    __rmul__ = __mul__

    def __eq__(s, o):
        o = F2.lift(o)
        return s.a == o.a and s.b == o.b

    def __pow__(s, e):
        r, b = F2(1), s
        while e:
            if e & 1:
                r = r * b
            b = b * b
            e >>= 1
        return r

    def inv(s):
        n = inv(s.a * s.a + s.b * s.b)
        return F2(s.a * n, -s.b * n)

    def is_zero(s):
        return s.a == 0 and s.b == 0


XI = F2(1, 1)

# ---- affine curve arithmetic over Fp (ints) or Fp2 ----------------------------------------


def _inv_any(x):
    return x.inv() if isinstance(x, F2) else inv(x)


def _red(x):
    return x if isinstance(x, F2) else x % P


def ec_add(p1, p2):
    if p1 is None:
        return p2
    if p2 is None:
        return p1
    x1, y1 = p1
    x2, y2 = p2
    if _red(x1 - x2) == _red(x1 - x1):
        if _red(y1 + y2) == _red(y1 - y1):
            return None
        lam = _red(x1 * x1 * 3 * _inv_any(_red(y1 * 2)))
    else:
        lam = _red((y2 - y1) * _inv_any(_red(x2 - x1)))
    x3 = _red(lam * lam - x1 - x2)
    return (x3, _red(lam * (x1 - x3) - y1))


def ec_neg(pt):
    return None if pt is None else (pt[0], _red(-pt[1]))


def ec_mul(pt, k):
    if k < 0:
        return ec_neg(ec_mul(pt, -k))
    acc = None
    while k:
        if k & 1:
            acc = ec_add(acc, pt)
        pt = ec_add(pt, pt)
        k >>= 1
    return acc


G1 = (0x17F1D3A73197D7942695638C4FA9AC0FC3688C4F9774B905A14E3A3F171BAC586C55E83FF97A1AEFFB3AF00ADB22C6BB,
      0x08B3F481E3AAA0F1A09E30ED741D8AE4FCF5E095D5D00AF600DB18CB2C04B3EDD03CC744A2888AE40CAA232946C5E7E1)
G2 = (F2(0x024AA2B2F08F0A91260805272DC51051C6E47AD4FA403B02B4510B647AE3D1770BAC0326A805BBEFD48056C8C121BDB8,
         0x13E02B6052719F607DACD3A088274F65596BD0D09920B61AB5DA61BBDC7F5049334CF11213945D57E5AC7D055D042B7E),
      F2(0x0CE5D527727D6E118CC9CDC6DA2E351AADFD9BAA8CBDD3A76D429A695160D12C923AC9CC3BACA289E193548608B82801,
         0x0606C4A02EA734CC32ACD2B02BC28B99CB3E287E85A763AF267492AB572E99AB3F370D275CEC1DA1AAA9075FF05F79BE))
B1 = 4
B2 = XI * 4
assert (G1[1] ** 2 - G1[0] ** 3 - B1) % P == 0
assert G2[1] * G2[1] == G2[0] * G2[0] * G2[0] + B2
assert ec_mul(G1, R_ORDER) is None
assert ec_mul(G2, R_ORDER) is None

# ---- tower: Fp6 = Fp2[v]/(v^3 - xi), Fp12 = Fp6[w]/(w^2 - v); gamma_k,i = xi^(i (p^k - 1)/6)
GAMMA = [[XI ** (i * (P ** k - 1) // 6) for i in range(1, 6)] for k in (1, 2, 3)]
for i in range(5):
    assert GAMMA[1][i].b == 0  # p^2 coefficients lie in Fp

# ---- G1 endomorphism phi(x, y) = (beta x, y) with phi(P) = [-z^2] P on G1 -------------------
w3 = [b for b in (pow(2, (P - 1) // 3, P), pow(3, (P - 1) // 3, P), pow(5, (P - 1) // 3, P)) if b != 1][0]
betas = [w3, w3 * w3 % P]
lam = (-(Z_BLS ** 2)) % R_ORDER
target = ec_mul(G1, lam)
BETA = [b for b in betas if (b * G1[0] % P, G1[1]) == target]
assert len(BETA) == 1
BETA = BETA[0]

# ---- G2 endomorphism psi = untwist-Frobenius-twist; psi(Q) = [z] Q on G2 --------------------
PSI_C1 = (XI ** ((P - 1) // 3)).inv()
PSI_C2 = (XI ** ((P - 1) // 2)).inv()
PSI2_C1 = inv(pow(2, (P - 1) // 3, P))


def psi(q):
    x, y = q
    return (PSI_C1 * F2(x.a, -x.b), PSI_C2 * F2(y.a, -y.b))


assert psi(G2) == ec_mul(G2, Z_BLS)
pp = psi(psi(G2))
assert pp == (G2[0] * PSI2_C1, -G2[1])

# ---- hash to curve (RFC 9380 8.8.1 / 8.8.2, appendix E.2 / E.3) -----------------------------
ISO1_A = 0x144698A3B8E9433D693A02C96D4982B0EA985383EE66A8D8E8981AEFD881AC98936F8DA0E0F97F5CF428082D584C1D
ISO1_B = 0x12E2908D11688030018B12E8753EEE3B2016C1F0F24F4070A0B9C14FCEF35EF55A23215A316CEAA5D1CC48E98E172BE0
SSWU1_Z = 11
SSWU1_C2 = sqrt_fp(-SSWU1_Z % P)

ISO2_A = F2(0, 240)
ISO2_B = F2(1012, 1012)
SSWU2_Z = F2(-2, -1)
Q2 = P * P
C1_2 = 3
assert (Q2 - 1) % 8 == 0 and ((Q2 - 1) // 8) % 2 == 1
C2_2 = (Q2 - 1) >> C1_2
C3_2 = (C2_2 - 1) // 2
SSWU2_C6 = SSWU2_Z ** C2_2
SSWU2_C7 = SSWU2_Z ** ((C2_2 + 1) // 2)

ISO1_K = {
    1: [0x11A05F2B1E833340B809101DD99815856B303E88A2D7005FF2627B56CDB4E2C85610C2D5F2E62D6EAEAC1662734649B7,
        0x17294ED3E943AB2F0588BAB22147A81C7C17E75B2F6A8417F565E33C70D1E86B4838F2A6F318C356E834EEF1B3CB83BB,
        0x0D54005DB97678EC1D1048C5D10A9A1BCE032473295983E56878E501EC68E25C958C3E3D2A09729FE0179F9DAC9EDCB0,
        0x1778E7166FCC6DB74E0609D307E55412D7F5E4656A8DBF25F1B33289F1B330835336E25CE3107193C5B388641D9B6861,
        0x0E99726A3199F4436642B4B3E4118E5499DB995A1257FB3F086EEB65982FAC18985A286F301E77C451154CE9AC8895D9,
        0x1630C3250D7313FF01D1201BF7A74AB5DB3CB17DD952799B9ED3AB9097E68F90A0870D2DCAE73D19CD13C1C66F652983,
        0x0D6ED6553FE44D296A3726C38AE652BFB11586264F0F8CE19008E218F9C86B2A8DA25128C1052ECADDD7F225A139ED84,
        0x17B81E7701ABDBE2E8743884D1117E53356DE5AB275B4DB1A682C62EF0F2753339B7C8F8C8F475AF9CCB5618E3F0C88E,
        0x080D3CF1F9A78FC47B90B33563BE990DC43B756CE79F5574A2C596C928C5D1DE4FA295F296B74E956D71986A8497E317,
        0x169B1F8E1BCFA7C42E0C37515D138F22DD2ECB803A0C5C99676314BAF4BB1B7FA3190B2EDC0327797F241067BE390C9E,
        0x10321DA079CE07E272D8EC09D2565B0DFA7DCCDDE6787F96D50AF36003B14866F69B771F8C285DECCA67DF3F1605FB7B,
        0x06E08C248E260E70BD1E962381EDEE3D31D79D7E22C837BC23C0BF1BC24C6B68C24B1B80B64D391FA9C8BA2E8BA2D229],
    2: [0x08CA8D548CFF19AE18B2E62F4BD3FA6F01D5EF4BA35B48BA9C9588617FC8AC62B558D681BE343DF8993CF9FA40D21B1C,
        0x12561A5DEB559C4348B4711298E536367041E8CA0CF0800C0126C2588C48BF5713DAA8846CB026E9E5C8276EC82B3BFF,
        0x0B2962FE57A3225E8137E629BFF2991F6F89416F5A718CD1FCA64E00B11ACEACD6A3D0967C94FEDCFCC239BA5CB83E19,
        0x03425581A58AE2FEC83AAFEF7C40EB545B08243F16B1655154CCA8ABC28D6FD04976D5243EECF5C4130DE8938DC62CD8,
        0x13A8E162022914A80A6F1D5F43E7A07DFFDFC759A12062BB8D6B44E833B306DA9BD29BA81F35781D539D395B3532A21E,
        0x0E7355F8E4E667B955390F7F0506C6E9395735E9CE9CAD4D0A43BCEF24B8982F7400D24BC4228F11C02DF9A29F6304A5,
        0x0772CAACF16936190F3E0C63E0596721570F5799AF53A1894E2E073062AEDE9CEA73B3538F0DE06CEC2574496EE84A3A,
        0x14A7AC2A9D64A8B230B3F5B074CF01996E7F63C21BCA68A81996E1CDF9822C580FA5B9489D11E2D311F7D99BBDCC5A5E,
        0x0A10ECF6ADA54F825E920B3DAFC7A3CCE07F8D1D7161366B74100DA67F39883503826692ABBA43704776EC3A79A1D641,
        0x095FC13AB9E92AD4476D6E3EB3A56680F682B4EE96F7D03776DF533978F31C1593174E4B4B7865002D6384D168ECDD0A,
        1],
    3: [0x090D97C81BA24EE0259D1F094980DCFA11AD138E48A869522B52AF6C956543D3CD0C7AEE9B3BA3C2BE9845719707BB33,
        0x134996A104EE5811D51036D776FB46831223E96C254F383D0F906343EB67AD34D6C56711962FA8BFE097E75A2E41C696,
        0x00CC786BAA966E66F4A384C86A3B49942552E2D658A31CE2C344BE4B91400DA7D26D521628B00523B8DFE240C72DE1F6,
        0x01F86376E8981C217898751AD8746757D42AA7B90EEB791C09E4A3EC03251CF9DE405ABA9EC61DECA6355C77B0E5F4CB,
        0x08CC03FDEFE0FF135CAF4FE2A21529C4195536FBE3CE50B879833FD221351ADC2EE7F8DC099040A841B6DAECF2E8FEDB,
        0x16603FCA40634B6A2211E11DB8F0A6A074A7D0D4AFADB7BD76505C3D3AD5544E203F6326C95A807299B23AB13633A5F0,
        0x04AB0B9BCFAC1BBCB2C977D027796B3CE75BB8CA2BE184CB5231413C4D634F3747A87AC2460F415EC961F8855FE9D6F2,
        0x0987C8D5333AB86FDE9926BD2CA6C674170A05BFE3BDD81FFD038DA6C26C842642F64550FEDFE935A15E4CA31870FB29,
        0x09FC4018BD96684BE88C9E221E4DA1BB8F3ABD16679DC26C1E8B6E6A1F20CABE69D65201C78607A360370E577BDBA587,
        0x0E1BBA7A1186BDB5223ABDE7ADA14A23C42A0CA7915AF6FE06985E7ED1E4D43B9B3F7055DD4EBA6F2BAFAAEBCA731C30,
        0x19713E47937CD1BE0DFD0B8F1D43FB93CD2FCBCB6CAF493FD1183E416389E61031BF3A5CCE3FBAFCE813711AD011C132,
        0x18B46A908F36F6DEB918C143FED2EDCC523559B8AAF0C2462E6BFE7F911F643249D9CDF41B44D606CE07C8A4D0074D8E,
        0x0B182CAC101B9399D155096004F53F447AA7B12A3426B08EC02710E807B4633F06C851C1919211F20D4C04F00B971EF8,
        0x0245A394AD1ECA9B72FC00AE7BE315DC757B3B080D4C158013E6632D3C40659CC6CF90AD1C232A6442D9D3F5DB980133,
        0x05C129645E44CF1102A159F748C4A3FC5E673D81D7E86568D9AB0F5D396A7CE46BA1049B6579AFB7866B1E715475224B,
        0x15E6BE4E990F03CE4EA50B3B42DF2EB5CB181D8F84965A3957ADD4FA95AF01B2B665027EFEC01C7704B456BE69C8B604],
    4: [0x16112C4C3A9C98B252181140FAD0EAE9601A6DE578980BE6EEC3232B5BE72E7A07F3688EF60C206D01479253B03663C1,
        0x1962D75C2381201E1A0CBD6C43C348B885C84FF731C4D59CA4A10356F453E01F78A4260763529E3532F6102C2E49A03D,
        0x058DF3306640DA276FAAAE7D6E8EB15778C4855551AE7F310C35A5DD279CD2ECA6757CD636F96F891E2538B53DBF67F2,
        0x16B7D288798E5395F20D23BF89EDB4D1D115C5DBDDBCD30E123DA489E726AF41727364F2C28297ADA8D26D98445F5416,
        0x0BE0E079545F43E4B00CC912F8228DDCC6D19C9F0F69BBB0542EDA0FC9DEC916A20B15DC0FD2EDEDDA39142311A5001D,
        0x08D9E5297186DB2D9FB266EAAC783182B70152C65550D881C5ECD87B6F0F5A6449F38DB9DFA9CCE202C6477FAAF9B7AC,
        0x166007C08A99DB2FC3BA8734ACE9824B5EECFDFA8D0CF8EF5DD365BC400A0051D5FA9C01A58B1FB93D1A1399126A775C,
        0x16A3EF08BE3EA7EA03BCDDFABBA6FF6EE5A4375EFA1F4FD7FEB34FD206357132B920F5B00801DEE460EE415A15812ED9,
        0x1866C8ED336C61231A1BE54FD1D74CC4F9FB0CE4C6AF5920ABC5750C4BF39B4852CFE2F7BB9248836B233D9D55535D4A,
        0x167A55CDA70A6E1CEA820597D94A84903216F763E13D87BB5308592E7EA7D4FBC7385EA3D529B35E346EF48BB8913F55,
        0x04D2F259EEA405BD48F010A01AD2911D9C6DD039BB61A6290E591B36E636A5C871A5C29F4F83060400F8B49CBA8F6AA8,
        0x0ACCBB67481D033FF5852C1E48C50C477F94FF8AEFCE42D28C0F9A88CEA7913516F968986F7EBBEA9684B529E2561092,
        0x0AD6B9514C767FE3C3613144B45F1496543346D98ADF02267D5CEEF9A00D9B8693000763E3B90AC11E99B138573345CC,
        0x02660400EB2E4F3B628BDD0D53CD76F2BF565B94E72927C1CB748DF27942480E420517BD8714CC80D1FADC1326ED06F7,
        0x0E0FA1D816DDC03E6B24255E0D7819C171C40F65E273B853324EFCD6356CAA205CA2F570F13497804415473A1D634B8F,
        1],
}

C_ = 0x5C759507E8E333EBB5B7A9A47D7ED8532C52D39FD3A042A88B58423C50AE15D5C2638E343D9C71C6238AAAAAAAA97D6
ISO2_K = {
    1: [F2(C_, C_),
        F2(0, 0x11560BF17BAA99BC32126FCED787C88F984F87ADF7AE0C7F9A208C6B4F20A4181472AAA9CB8D555526A9FFFFFFFFC71A),
        F2(0x11560BF17BAA99BC32126FCED787C88F984F87ADF7AE0C7F9A208C6B4F20A4181472AAA9CB8D555526A9FFFFFFFFC71E,
           0x8AB05F8BDD54CDE190937E76BC3E447CC27C3D6FBD7063FCD104635A790520C0A395554E5C6AAAA9354FFFFFFFFE38D),
        F2(0x171D6541FA38CCFAED6DEA691F5FB614CB14B4E7F4E810AA22D6108F142B85757098E38D0F671C7188E2AAAAAAAA5ED1, 0)],
    2: [F2(0, 0x1A0111EA397FE69A4B1BA7B6434BACD764774B84F38512BF6730D2A0F6B0F6241EABFFFEB153FFFFB9FEFFFFFFFFAA63),
        F2(0xC, 0x1A0111EA397FE69A4B1BA7B6434BACD764774B84F38512BF6730D2A0F6B0F6241EABFFFEB153FFFFB9FEFFFFFFFFAA9F),
        F2(1)],
    3: [F2(0x1530477C7AB4113B59A4C18B076D11930F7DA5D4A07F649BF54439D87D27E500FC8C25EBF8C92F6812CFC71C71C6D706,
           0x1530477C7AB4113B59A4C18B076D11930F7DA5D4A07F649BF54439D87D27E500FC8C25EBF8C92F6812CFC71C71C6D706),
        F2(0, 0x5C759507E8E333EBB5B7A9A47D7ED8532C52D39FD3A042A88B58423C50AE15D5C2638E343D9C71C6238AAAAAAAA97BE),
        F2(0x11560BF17BAA99BC32126FCED787C88F984F87ADF7AE0C7F9A208C6B4F20A4181472AAA9CB8D555526A9FFFFFFFFC71C,
           0x8AB05F8BDD54CDE190937E76BC3E447CC27C3D6FBD7063FCD104635A790520C0A395554E5C6AAAA9354FFFFFFFFE38F),
        F2(0x124C9AD43B6CF79BFBF7043DE3811AD0761B0F37A1E26286B0E977C69AA274524E79097A56DC4BD9E1B371C71C718B10, 0)],
    4: [F2(0x1A0111EA397FE69A4B1BA7B6434BACD764774B84F38512BF6730D2A0F6B0F6241EABFFFEB153FFFFB9FEFFFFFFFFA8FB,
           0x1A0111EA397FE69A4B1BA7B6434BACD764774B84F38512BF6730D2A0F6B0F6241EABFFFEB153FFFFB9FEFFFFFFFFA8FB),
        F2(0, 0x1A0111EA397FE69A4B1BA7B6434BACD764774B84F38512BF6730D2A0F6B0F6241EABFFFEB153FFFFB9FEFFFFFFFFA9D3),
        F2(0x12, 0x1A0111EA397FE69A4B1BA7B6434BACD764774B84F38512BF6730D2A0F6B0F6241EABFFFEB153FFFFB9FEFFFFFFFFAA99),
        F2(1)],
}


def poly(c, x):
    acc = F2(0) if isinstance(x, F2) else 0
    for k in reversed(c):
        acc = _red(acc * x + k)
    return acc


def iso1(pt):
    x, y = pt
    xn, xd = poly(ISO1_K[1], x), poly(ISO1_K[2], x)
    yn, yd = poly(ISO1_K[3], x), poly(ISO1_K[4], x)
    return (xn * inv(xd) % P, y * yn * inv(yd) % P)


def iso2(pt):
    x, y = pt
    xn, xd = poly(ISO2_K[1], x), poly(ISO2_K[2], x)
    yn, yd = poly(ISO2_K[3], x), poly(ISO2_K[4], x)
    return (xn * xd.inv(), y * yn * yd.inv())


# The isogenies map points of E' onto E: check with a point of E'.
for xx in range(1, 50):
    g = (xx ** 3 + ISO1_A * xx + ISO1_B) % P
    if pow(g, (P - 1) // 2, P) == 1:
        q = iso1((xx, sqrt_fp(g)))
        assert (q[1] ** 2 - q[0] ** 3 - 4) % P == 0
        break
for xx in range(1, 50):
    x2 = F2(xx, 1)
    g = x2 * x2 * x2 + ISO2_A * x2 + ISO2_B
    n = (g.a * g.a + g.b * g.b) % P
    if pow(n, (P - 1) // 2, P) == 1:
        # square root in Fp2 through the norm
        a = sqrt_fp(n)
        d = (g.a + a) * inv(2) % P
        if pow(d, (P - 1) // 2, P) != 1:
            d = (g.a - a) * inv(2) % P
        x0 = sqrt_fp(d)
        y2 = F2(x0, g.b * inv(2 * x0))
        assert y2 * y2 == g
        q = iso2((x2, y2))
        assert q[1] * q[1] == q[0] * q[0] * q[0] + B2
        break

# ---- scalar field ---------------------------------------------------------------------------
FR_R = 1 << 256
FR_R2 = FR_R * FR_R % R_ORDER
FR_N0 = (-inv(R_ORDER, 1 << 64) if False else (-pow(R_ORDER, -1, 1 << 64))) % (1 << 64)
FP_N0 = (-pow(P, -1, 1 << 64)) % (1 << 64)

# ---- output ---------------------------------------------------------------------------------


def limbs(x, n=6):
    return [(x >> (64 * i)) & M64 for i in range(n)]


def mont(x):
    return (x % P) * RM % P


def c_limbs(x, n=6):
    return "{" + ", ".join("0x%016xULL" % v for v in limbs(x, n)) + "}"


def c_fp(x):
    return "{" + c_limbs(mont(x)) + "}"


def c_fp2(x):
    x = F2.lift(x)
    return "{" + c_fp(x.a) + ", " + c_fp(x.b) + "}"


decl = []  # (ctype, name, initializer, comment)


def add(ctype, name, init, comment):
    decl.append((ctype, name, init, comment))


add("fp", "BLS_FP_ONE", c_fp(1), "1 (R mod p)")
add("fp", "BLS_FP_R2", "{" + c_limbs(RM * RM % P) + "}", "R^2 mod p (converts into Montgomery form)")
add("fp", "BLS_FP_R3", "{" + c_limbs(RM * RM * RM % P) + "}", "R^3 mod p (reduces 2^384-multiples)")
add("fp", "BLS_G1_B", c_fp(B1), "b = 4 of E: y^2 = x^3 + 4")
add("fp", "BLS_G1_B3", c_fp(3 * B1), "3b = 12")
add("fp", "BLS_G1_GEN_X", c_fp(G1[0]), "x of the G1 generator")
add("fp", "BLS_G1_GEN_Y", c_fp(G1[1]), "y of the G1 generator")
add("fp2", "BLS_G2_B", c_fp2(B2), "b' = 4(1+u) of E': y^2 = x^3 + 4(1+u)")
add("fp2", "BLS_G2_B3", c_fp2(B2 * 3), "3b' = 12(1+u)")
add("fp2", "BLS_G2_GEN_X", c_fp2(G2[0]), "x of the G2 generator")
add("fp2", "BLS_G2_GEN_Y", c_fp2(G2[1]), "y of the G2 generator")
add("fp2", "BLS_FROB_GAMMA[3][5]",
    "{" + ",\n    ".join("{" + ", ".join(c_fp2(g) for g in row) + "}" for row in GAMMA) + "}",
    "gamma[k-1][i-1] = xi^(i (p^k - 1) / 6), xi = 1 + u, for the p^k-power Frobenius")
add("fp", "BLS_G1_BETA", c_fp(BETA), "cube root of unity with (beta x, y) = [-z^2](x, y) on G1")
add("fp2", "BLS_PSI_C1", c_fp2(PSI_C1), "1 / (1+u)^((p-1)/3)")
add("fp2", "BLS_PSI_C2", c_fp2(PSI_C2), "1 / (1+u)^((p-1)/2)")
add("fp", "BLS_PSI2_C1", c_fp(PSI2_C1), "1 / 2^((p-1)/3): psi^2(x, y) = (c x, -y)")
add("fp", "BLS_SSWU1_A", c_fp(ISO1_A), "A' of the curve 11-isogenous to E")
add("fp", "BLS_SSWU1_B", c_fp(ISO1_B), "B' of the curve 11-isogenous to E")
add("fp", "BLS_SSWU1_Z", c_fp(SSWU1_Z), "Z = 11")
add("fp", "BLS_SSWU1_C2", c_fp(SSWU1_C2), "sqrt(-Z)")
add("fp2", "BLS_SSWU2_A", c_fp2(ISO2_A), "A' = 240u of the curve 3-isogenous to E'")
add("fp2", "BLS_SSWU2_B", c_fp2(ISO2_B), "B' = 1012(1+u)")
add("fp2", "BLS_SSWU2_Z", c_fp2(SSWU2_Z), "Z = -(2+u)")
add("fp2", "BLS_SSWU2_C6", c_fp2(SSWU2_C6), "Z^c2, c2 = (p^2-1)/8 (sqrt_ratio)")
add("fp2", "BLS_SSWU2_C7", c_fp2(SSWU2_C7), "Z^((c2+1)/2)")
add("uint64_t", "BLS_SSWU2_C3[12]", c_limbs(C3_2, 12), "c3 = (c2 - 1)/2, an exponent (plain integer)")
for k, n in ((1, "XNUM"), (2, "XDEN"), (3, "YNUM"), (4, "YDEN")):
    cs = ISO1_K[k]
    add("fp", "BLS_ISO1_%s[%d]" % (n, len(cs)), "{" + ",\n    ".join(c_fp(c) for c in cs) + "}",
        "11-isogeny coefficients k_(%d,i), i = 0.." % k + str(len(cs) - 1))
for k, n in ((1, "XNUM"), (2, "XDEN"), (3, "YNUM"), (4, "YDEN")):
    cs = ISO2_K[k]
    add("fp2", "BLS_ISO2_%s[%d]" % (n, len(cs)), "{" + ",\n    ".join(c_fp2(c) for c in cs) + "}",
        "3-isogeny coefficients k_(%d,i), i = 0.." % k + str(len(cs) - 1))
add("uint64_t", "BLS_EXP_P_MINUS_2[6]", c_limbs(P - 2), "p - 2 (inversion)")
add("uint64_t", "BLS_EXP_P_PLUS_1_DIV_4[6]", c_limbs((P + 1) // 4), "(p + 1)/4 (square root)")
add("uint64_t", "BLS_EXP_P_MINUS_3_DIV_4[6]", c_limbs((P - 3) // 4), "(p - 3)/4 (sqrt_ratio)")
add("uint64_t", "BLS_EXP_P_MINUS_1_DIV_2[6]", c_limbs((P - 1) // 2), "(p - 1)/2 (Legendre symbol)")
add("uint64_t", "BLS_R_ORDER[4]", c_limbs(R_ORDER, 4), "r, the order of G1, G2, GT")
add("uint64_t", "BLS_FR_R2[4]", c_limbs(FR_R2, 4), "2^512 mod r")

here = os.path.dirname(os.path.abspath(__file__))
out = os.path.join(here, "..", "src", "bls12_381")
hdr = ["/* Generated by tools/bls12_381_constants.py - do not edit. */",
       "#ifndef GROVE_BLS12_381_CONSTANTS_H", "#define GROVE_BLS12_381_CONSTANTS_H", "",
       '#include "bls12_381/fp2.h"', "",
       "#define BLS_FP_N0 0x%016xULL /* -p^-1 mod 2^64 */" % FP_N0,
       "#define BLS_FR_N0 0x%016xULL /* -r^-1 mod 2^64 */" % FR_N0,
       "#define BLS_Z_ABS 0x%016xULL /* |z|, z = -0xd201000000010000 the curve parameter */" % -Z_BLS,
       ""]
src = ["/* Generated by tools/bls12_381_constants.py - do not edit. */",
       '#include "bls12_381/constants.h"', ""]
for ctype, name, init, comment in decl:
    hdr.append("extern const %s %s; /* %s */" % (ctype, name, comment))
    src.append("/* %s */" % comment)
    src.append("const %s %s = %s;" % (ctype, name, init))
    src.append("")
hdr += ["", "#endif", ""]
with open(os.path.join(out, "constants.h"), "w") as f:
    f.write("\n".join(hdr))
with open(os.path.join(out, "constants.c"), "w") as f:
    f.write("\n".join(src))
print("wrote constants.h and constants.c", file=sys.stderr)
