//.kernel histogram
//.platform DG2
//.thread_config numGRF=128, numAcc=4, numSWSB=16
//.options_string ""
//.full_options "-emitLocation -forceAssignRhysicalReg "" -enablePreemption -hasRNEandDenorm -noStitchExternFunc -useInlineData -crossThreadDataAlignment 32 -linker 0 -lscEnableImmOffsFor 196638 -abortonspill -TotalGRFNum 128 -boundsChecking -presched-ctrl 22 -presched-rp 100 -nodpsendreorder -SBIDDepLoc -output -binary -dumpcommonisa -shaderDumpFilter "" -dumpvisa -printHexFloatInAsm -noverifyCISA -enableHalfLSC -waLscUgmFence -insertRSDummyMov "
//.instCount 88
//.RA type	TRIVIAL_RA

//.declare BuiltInR0 (0)  rf=r size=32 type=ud align=16 words (r0.0)
//.declare  (1)  rf=r size=32 type=ud align=16 words (r3.0)
//.declare BuiltinA0 (2)  rf=a size=4 type=ud align=1 words (a0.0)
//.declare BuiltinA0Dot2 (3)  rf=a size=4 type=ud align=1 words (a0.2)
//.declare %null (9)  rf=r size=4 type=ud align=2 words
//.declare %local_id_x (12)  rf=r size=4 type=ud align=2 words (r1.7)
//.declare %local_id_y (13)  rf=r size=4 type=ud align=2 words (r2.0)
//.declare %local_size_x (14)  rf=r size=4 type=ud align=2 words (r1.3)
//.declare %local_size_y (15)  rf=r size=4 type=ud align=2 words (r1.4)
//.declare %group_id_x (16)  rf=r size=4 type=ud align=2 words (r0.1)
//.declare %group_id_y (17)  rf=r size=4 type=ud align=2 words (r0.6)
//.declare %group_id_z (18)  rf=r size=4 type=ud align=2 words (r0.7)
//.declare %group_count_x (19)  rf=r size=4 type=ud align=2 words (r1.5)
//.declare %group_count_y (20)  rf=r size=4 type=ud align=2 words (r1.6)
//.declare %tsc (21)  rf=r size=20 type=ud align=2 words
//.declare %arg (22)  rf=r size=0 type=ud align=16 words (r26.0)
//.declare %retval (23)  rf=r size=0 type=ud align=16 words (r26.0) Output
//.declare %sp (24)  rf=r size=8 type=uq align=4 words (r125.3)
//.declare %fp (25)  rf=r size=8 type=uq align=4 words (r125.2)
//.declare %sr0 (26)  rf=r size=16 type=ud align=2 words
//.declare %cr0 (27)  rf=r size=12 type=ud align=2 words
//.declare %ce0 (28)  rf=r size=4 type=ud align=2 words
//.declare %dbg0 (29)  rf=r size=8 type=ud align=2 words
//.declare implBufPtr (31)  rf=r size=8 type=uq align=4 words (r126.0)
//.declare localIdBufPtr (32)  rf=r size=8 type=uq align=4 words (r126.3)
//.declare %msg0 (33)  rf=r size=12 type=ud align=2 words
//.declare V0033 (41)  rf=r size=32 type=d alias=+0 align=16 words (r3.0)
//.declare V0034 (42)  rf=r size=8 type=uq align=4 words (r8.2)
//.declare V0036 (44)  rf=r size=32 type=d alias=+0 align=16 words (r3.0)
//.declare V0037 (45)  rf=r size=32 type=d align=16 words (r7.0)
//.declare V0038 (46)  rf=r size=12 type=d align=2 words (r9.0)
//.declare V0039 (47)  rf=r size=32 type=w align=16 words (r1.0)
//.declare V0040 (48)  rf=r size=32 type=w align=16 words (r2.0)
//.declare V0041 (49)  rf=r size=32 type=w align=16 words (r3.0)
//.declare V0042 (50)  rf=r size=32 type=w align=16 words (r4.0)
//.declare V0043 (51)  rf=r size=32 type=w align=16 words (r5.0)
//.declare V0044 (52)  rf=r size=32 type=w align=16 words (r6.0)
//.declare P01 (55)  rf=f32  size=4 type=uw align=2 words (f0.0)
//.declare V0047 (56)  rf=r size=32 type=uw alias=V0039+0 align=16 words (r1.0)
//.declare V0048 (57)  rf=r size=32 type=uw alias=V0040+0 align=16 words (r2.0)
//.declare V0049 (58)  rf=r size=64 type=d align=16 words (r4.0)
//.declare V0050 (59)  rf=r size=64 type=d align=16 words (r10.0)
//.declare V0051 (60)  rf=r size=64 type=ud alias=V0049+0 align=16 words (r4.0)
//.declare V0052 (61)  rf=r size=64 type=ud alias=V0050+0 align=16 words (r10.0)
//.declare V0053 (62)  rf=r size=64 type=d align=16 words (r12.0)
//.declare V0054 (63)  rf=r size=64 type=d align=16 words (r14.0)
//.declare  (64)  rf=r size=32 type=ud align=16 words (r6.0)
//.declare  (65)  rf=r size=32 type=ud align=16 words (r16.0)
//.declare V0055 (66)  rf=r size=4 type=d align=16 words (r8.0)
//.declare V0056 (67)  rf=r size=64 type=d align=16 words (r17.0)
//.declare V0057 (68)  rf=r size=64 type=d align=16 words (r19.0)
//.declare V0058 (69)  rf=r size=64 type=d align=16 words (r21.0)
//.declare V0059 (70)  rf=r size=64 type=d align=16 words (r23.0)
//.declare V0060 (71)  rf=r size=64 type=ud alias=V0058+0 align=16 words (r21.0)
//.declare V0061 (72)  rf=r size=64 type=ud alias=V0059+0 align=16 words (r23.0)
//.declare V0062 (73)  rf=r size=32 type=b align=16 words (r25.0)
//.declare V0063 (74)  rf=r size=32 type=b align=16 words (r26.0)
//.declare V0064 (75)  rf=r size=64 type=ud align=16 words (r28.0)
//.declare V0065 (76)  rf=r size=64 type=b alias=V0064+0 align=16 words (r28.0)
//.declare V0066 (77)  rf=r size=64 type=ud align=16 words (r30.0)
//.declare V0067 (78)  rf=r size=64 type=b alias=V0066+0 align=16 words (r30.0)
//.declare V0068 (79)  rf=r size=64 type=d align=16 words (r32.0)
//.declare V0069 (80)  rf=r size=64 type=d align=16 words (r34.0)
//.declare V0070 (81)  rf=r size=32 type=ub alias=V0062+0 align=16 words (r25.0)
//.declare V0071 (82)  rf=r size=32 type=ub alias=V0063+0 align=16 words (r26.0)
//.declare V0072 (83)  rf=r size=64 type=ud alias=V0068+0 align=16 words (r32.0)
//.declare V0073 (84)  rf=r size=64 type=ud alias=V0069+0 align=16 words (r34.0)
//.declare  (87)  rf=r size=32 type=ud align=16 words (r27.0)
//.declare  (88)  rf=r size=32 type=ud align=16 words (r36.0)
//.declare V0078 (91)  rf=r size=8 type=d alias=V0034+0 align=4 words (r8.4)
//.declare V0079 (92)  rf=r size=64 type=d align=16 words (r37.0)
//.declare V0080 (93)  rf=r size=64 type=d align=16 words (r39.0)
//.declare V0081 (94)  rf=r size=64 type=d align=16 words (r41.0)
//.declare V0082 (95)  rf=r size=64 type=d align=16 words (r43.0)
//.declare V0085 (98)  rf=r size=64 type=ud alias=V0081+0 align=16 words (r41.0)
//.declare V0086 (99)  rf=r size=64 type=ud alias=V0082+0 align=16 words (r43.0)
//.declare V0091 (104)  rf=r size=64 type=ud alias=V0079+0 align=16 words (r37.0)
//.declare V0092 (105)  rf=r size=64 type=ud alias=V0080+0 align=16 words (r39.0)
//.declare V0093 (106)  rf=r size=32 type=ud align=16 words (r45.0)
//.declare V0094 (107)  rf=r size=32 type=ud align=16 words (r46.0)
//.declare V0095 (108)  rf=r size=32 type=ud align=16 words (r47.0)
//.declare V0096 (109)  rf=r size=32 type=ud align=16 words (r48.0)
//.declare V0097 (110)  rf=r size=128 type=uq align=16 words (r49.0)
//.declare V0098 (111)  rf=r size=128 type=uq align=16 words (r53.0)
//.declare V0099 (112)  rf=r size=128 type=ud alias=V0097+0 align=16 words (r49.0)
//.declare V0100 (113)  rf=r size=128 type=ud alias=V0098+0 align=16 words (r53.0)
//.declare V0101 (114)  rf=r size=128 type=d alias=V0097+0 align=16 words (r49.0)
//.declare V0102 (115)  rf=r size=128 type=d alias=V0098+0 align=16 words (r53.0)
//.declare V0103 (116)  rf=r size=64 type=d align=16 words (r57.0)
//.declare V0104 (117)  rf=r size=64 type=d align=16 words (r59.0)
//.declare V0107 (120)  rf=r size=4 type=ud align=2 words (r8.0)
//.declare V0108 (121)  rf=r size=8 type=uq align=4 words (r8.1)
//.declare  (122)  rf=r size=32 type=ud align=16 words (r127.0)
//.declare  (123)  rf=r size=32 type=ud align=16 words (r61.0)
//.declare  (124)  rf=r size=32 type=ud align=16 words (r0.0)
//.declare  (125)  rf=r size=32 type=ud align=16 words (r127.0)
//.declare  (126)  rf=r size=32 type=ud align=16 words (r1.0)
//.declare  (127)  rf=r size=32 type=ud align=16 words (r7.0)
//.declare  (128)  rf=r size=128 type=ud align=16 words (r1.0)
//.declare  (129)  rf=r size=64 type=ud align=16 words (r5.0)
//.declare  (130)  rf=r size=64 type=ud align=16 words (r8.0)

// .inputs
// +----------+----------+--------+----------+------------+
// | id       | type     |  bytes | at       | class      |
// +----------+----------+--------+----------+------------+
// | V0039    | :w x 16  |     32 | r1       | general    |
// | V0040    | :w x 16  |     32 | r2       | general    |
// | V0041    | :w x 16  |     32 | r3       | general    |
// | V0042    | :w x 16  |     32 | r4       | general    |
// | V0043    | :w x 16  |     32 | r5       | general    |
// | V0044    | :w x 16  |     32 | r6       | general    |
// | V0037    | :d x 8   |     32 | r7       | general    |
// | V0107    | :ud      |      4 | r8       | general    |
// | V0108    | :uq      |      8 | r8+8     | general    |
// | V0034    | :uq      |      8 | r8+16    | general    |
// | V0038    | :d x 3   |     12 | r9       | general    |
// +----------+----------+--------+----------+------------+


// B000: Preds:{},  Succs:{B001}
per_thread_prolog:
(W)     mov (8|M0)               r127.0<1>:ud  0x0:ud                                                // 
(W)     and (1|M0)               r127.2<1>:ud  r0.0<0;1,0>:ud    0xFFFFFFC0:ud                       // 
(W)     and (1|M0)               r127.0<1>:uw  r0.4<0;1,0>:uw    0xFF:uw                             // 
(W)     add (1|M0)               r127.2<1>:ud  r127.2<0;1,0>:ud  0x40:uw              {I@2}          // 
(W)     mad (1|M0)               r127.2<1>:ud  r127.2<0;0>:ud    r127.0<0;0>:uw    0xC0:uw              {I@1} // 
(W)     mov (8|M0)               r7.0<1>:ud    r1.0<1;1,0>:ud                                        // 
(W)     send.dc0 (8|M0)          r1       r127    null:0  0x0            0x024844FD           {A@1,$0} // wr:1h+0, rd:4; oword aligned block read x8 // $65
(W)     add (1|M0)               r127.2<1>:ud  r127.2<0;1,0>:ud  0x80:uw              {$0.src}       // 
(W)     send.dc0 (8|M0)          r5       r127    null:0  0x0            0x022843FD           {A@1,$1} // wr:1h+0, rd:2; oword aligned block read x4 // $65
        nop                                                                                          // 
        nop                                                                                          // 
        nop                                                                                          // 
// B001: Preds:{B000},  Succs:{B002}
// cross_thread_prolog:
(W)     mov (8|M0)               r127.0<1>:ud  0x0:ud                              {$1.src}          // 
(W)     and (1|M0)               r127.2<1>:ud  r0.0<0;1,0>:ud    0xFFFFFFC0:ud                       // 
(W)     send.dc0 (8|M0)          r8       r127    null:0  0x0            0x022843FD           {A@1,$2} // wr:1h+0, rd:2; oword aligned block read x4 // $65
// B002: Preds:{B001},  Succs:{B003, B004}
// _main:
(W)     mov (8|M0)               r3.0<1>:ud    r0.0<1;1,0>:ud                   {$0.dst}             // $1
(W)     or (1|M0)                cr0.0<1>:ud   cr0.0<0;1,0>:ud   0x4C0:uw              {A@1}         // $1
        cmp (16|M0)   (lt)f0.0   null<1>:w     r1.0<1;1,0>:uw    0x10:uw              {A@1}          // $2
        cmp (16|M16)  (lt)f0.0   null<1>:w     r2.0<1;1,0>:uw    0x10:uw                             // $3
(~f0.0) goto (32|M0)                         _0_007            _0_007                                // $4
// B003: [inDivergent],  Preds:{B002},  Succs:{B004}
_0_008:
        shl (16|M0)              r4.0<1>:d     r1.0<1;1,0>:uw    2:w               {$1.dst}          // $8
        shl (16|M16)             r10.0<1>:d    r2.0<1;1,0>:uw    2:w                                 // $9
        mov (16|M0)              r12.0<1>:d    0:w                                                   // $12
        mov (16|M16)             r14.0<1>:d    0:w                                                   // $14
        or (16|M0)               r4.0<1>:d     r4.0<1;1,0>:d     268435456:d               {I@4}     // $10
        or (16|M16)              r10.0<1>:d    r10.0<1;1,0>:d    268435456:d               {I@4}     // $11
        store.slm.d32.a32 (16|M0)  [r4:2]       r12:2              {A@2,$3} // ex_desc:0x0; desc:0x40E0504 // $13
        store.slm.d32.a32 (16|M16)  [r10:2]     r14:2              {A@1,$4} // ex_desc:0x0; desc:0x40E0504 // $15
// B004: Preds:{B003, B002},  Succs:{B005, B006}
_0_007:
        join (32|M0)                         L464                                                    // 
L464:
(W)     send.slm (1|M0)          r6       r3      null:0  0x0            0x0210011F           {$1} // wr:1+0, rd:1; fence.slm.none.group // $17
(W)     mov (1|M0)               r16.2<1>:f    0x0:f                               {Compacted}       //  (0x00000000:f); $18
(W)     mov (2|M0)               r16.10<1>:ub  r3.11<0;1,0>:ub                  {F@1}                // $18
(W)     mov (8|M0)               null<1>:ud    r6.0<1;1,0>:ud                   {$1.dst}             //  memory fence commit; $18
(W)     send.gtwy (1|M0)         null     r16     null:0  0x0            0x02000004           {A@2,$5} // wr:1+0, rd:0; signal barrier // $18
(W)     sync.bar                             null                                                    // $18
(W)     mul (1|M0)               acc0.0<1>:d   r9.0<0;1,0>:d     r3.2<0;1,0>:uw   {Compacted,$2.dst} // $19
        mov (16|M0)              r17.0<1>:d    r1.0<1;1,0>:uw                                        // $20
        mov (16|M16)             r19.0<1>:d    r2.0<1;1,0>:uw                                        // $21
(W)     mach (1|M0)              r8.0<1>:d     r9.0<0;1,0>:d     r3.1<0;1,0>:d    {Compacted}        // $20
        add3 (16|M0)             r21.0<1>:d    r8.0<0;0>:d       r17.0<1;0>:d      r7.0<0>:d        {I@1} // $22
        add3 (16|M16)            r23.0<1>:d    r8.0<0;0>:d       r19.0<1;0>:d      r7.0<0>:d         // $23
        load.ugm.d8u32.a32.ca.ca (16|M0)  r28:2 bti[0][r21:2]      {A@2,$6} // ex_desc:0x0; desc:0x64280900 // $24
        load.ugm.d8u32.a32.ca.ca (16|M16)  r30:2 bti[0][r23:2]     {A@1,$7} // ex_desc:0x0; desc:0x64280900 // $26
        shl (16|M0)              r25.0<2>:b    r28.0<4;1,0>:b    2:w               {$6.dst}          // $28
        shl (16|M16)             r26.0<2>:b    r30.0<4;1,0>:b    2:w               {$7.dst}          // $29
        and (16|M0)              r25.0<2>:b    r25.0<2;1,0>:b    60:w               {I@2}            // $30
        and (16|M16)             r26.0<2>:b    r26.0<2;1,0>:b    60:w               {I@2}            // $31
        or (16|M0)               r32.0<1>:d    r25.0<2;1,0>:ub   268435456:d               {I@2}     // $34
        or (16|M16)              r34.0<1>:d    r26.0<2;1,0>:ub   268435456:d               {I@2}     // $35
        atomic_iinc.slm.d32.a32 (16|M0)  null:0 [r32:2]           null:0             {A@2,$8} // ex_desc:0x0; desc:0x4000508 // $36
        atomic_iinc.slm.d32.a32 (16|M16)  null:0 [r34:2]          null:0             {A@1,$9} // ex_desc:0x0; desc:0x4000508 // $37
(W)     send.slm (1|M0)          r27      r3      null:0  0x0            0x0210011F           {$10} // wr:1+0, rd:1; fence.slm.none.group // $38
(W)     mov (1|M0)               r36.2<1>:f    0x0:f                               {Compacted}       //  (0x00000000:f); $39
(W)     mov (2|M0)               r36.10<1>:ub  r3.11<0;1,0>:ub                  {F@1}                // $39
(W)     mov (8|M0)               null<1>:ud    r27.0<1;1,0>:ud                  {$10.dst}            //  memory fence commit; $39
(W)     send.gtwy (1|M0)         null     r36     null:0  0x0            0x02000004           {A@2,$11} // wr:1+0, rd:0; signal barrier // $39
(W)     sync.bar                             null                                                    // $39
(~f0.0) goto (32|M0)                         _0_009            _0_009                                // $40
// B005: [inDivergent],  Preds:{B004},  Succs:{B006}
_0_010:
        shl (16|M0)              r37.0<1>:d    r17.0<1;1,0>:d    2:w               {Compacted}       // $44
        addc (8|M0)              r41.0<1>:ud   r8.4<0;1,0>:ud    r37.0<1;1,0>:ud  {AccWrEn,Compacted,I@1} // $46
        shl (16|M16)             r39.0<1>:d    r19.0<1;1,0>:d    2:w               {Compacted}       // $45
        mov (8|M0)               r45.0<1>:ud   acc0.0<1;1,0>:ud                 {Compacted}          // $46
        addc (8|M8)              r42.0<1>:ud   r8.4<0;1,0>:ud    r38.0<1;1,0>:ud  {AccWrEn}          // $48
        or (16|M0)               r37.0<1>:d    r37.0<1;1,0>:d    268435456:d                         // $58
        mov (8|M8)               r46.0<1>:ud   acc0.0<1;1,0>:ud                 {Compacted}          // $48
        addc (8|M16)             r43.0<1>:ud   r8.4<0;1,0>:ud    r39.0<1;1,0>:ud  {AccWrEn,I@5}      // $50
        load.slm.d32.a32 (16|M0)  r57:2         [r37:2]            {A@3,$12} // ex_desc:0x0; desc:0x4280500 // $60
        mov (8|M16)              r47.0<1>:ud   acc0.0<1;1,0>:ud                 {Compacted}          // $50
        addc (8|M24)             r44.0<1>:ud   r8.4<0;1,0>:ud    r40.0<1;1,0>:ud  {AccWrEn}          // $52
        or (16|M16)              r39.0<1>:d    r39.0<1;1,0>:d    268435456:d                         // $59
        load.slm.d32.a32 (16|M16)  r59:2        [r39:2]            {A@1,$13} // ex_desc:0x0; desc:0x4280500 // $61
        mov (8|M24)              r48.0<1>:ud   acc0.0<1;1,0>:ud                 {Compacted}          // $52
        add (8|M0)               r49.1<2>:ud   r45.0<1;1,0>:ud   r8.5<0;1,0>:ud                      // $47
        add (8|M8)               r51.1<2>:ud   r46.0<1;1,0>:ud   r8.5<0;1,0>:ud                      // $49
        add (8|M16)              r53.1<2>:ud   r47.0<1;1,0>:ud   r8.5<0;1,0>:ud                      // $51
        add (8|M24)              r55.1<2>:ud   r48.0<1;1,0>:ud   r8.5<0;1,0>:ud   {I@4}              // $53
        mov (8|M0)               r49.0<2>:d    r41.0<1;1,0>:d                                        // $54
        mov (8|M8)               r51.0<2>:d    r42.0<1;1,0>:d                                        // $54
        mov (8|M16)              r53.0<2>:d    r43.0<1;1,0>:d                                        // $56
        mov (8|M24)              r55.0<2>:d    r44.0<1;1,0>:d                                        // $56
        atomic_iadd.ugm.d32.a64 (16|M0)  null:0 [r49:4]           r57:2              {A@3,$12} // ex_desc:0x0; desc:0x800058C // $62
        atomic_iadd.ugm.d32.a64 (16|M16)  null:0 [r53:4]          r59:2              {A@1,$13} // ex_desc:0x0; desc:0x800058C // $63
// B006: Preds:{B005, B004},  Succs:{}
_0_009:
        join (32|M0)                         L1240                                                   // 
L1240:
(W)     mov (8|M0)               r127.0<1>:f   r3.0<1;1,0>:f                    {Compacted}          // $65
(W)     send.ugm (1|M0)          r61      r3      null:0  0x0            0x0210651F           {$14} // wr:1+0, rd:1; fence invalid flush type scoped to tile // $65
(W)     mov (8|M0)               null<1>:ud    r61.0<1;1,0>:ud                  {$14.dst}            //  memory fence commit; $65
(W)     send.gtwy (8|M0)         null     r127    null:0  0x0            0x02000010           {EOT,A@1} // wr:1+0, rd:0; end of thread // $65
L1296:
        nop                                                                                          // $65


//.BankConflicts: 0
//.BankConflicts.SameBank: 0
//.BankConflicts.TwoSrc: 0
//.SIMD16ReadSuppressions: 0
//.SIMD8s: 114
//
//.RMWs: 4
//
//.accSubDef: 0
//.accSubUse: 0
//.accSubCandidateDef: 0
//.accSubCandidateUse: 0
