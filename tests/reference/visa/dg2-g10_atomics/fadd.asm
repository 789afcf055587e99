//.kernel fadd
//.platform DG2
//.thread_config numGRF=128, numAcc=4, numSWSB=16
//.options_string ""
//.full_options "-emitLocation -forceAssignRhysicalReg "" -enablePreemption -hasRNEandDenorm -noStitchExternFunc -useInlineData -crossThreadDataAlignment 32 -linker 0 -lscEnableImmOffsFor 196638 -abortonspill -TotalGRFNum 128 -boundsChecking -presched-ctrl 22 -presched-rp 100 -nodpsendreorder -SBIDDepLoc -output -binary -dumpcommonisa -shaderDumpFilter "" -dumpvisa -printHexFloatInAsm -noverifyCISA -enableHalfLSC -waLscUgmFence -insertRSDummyMov "
//.instCount 57
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
//.declare V0034 (42)  rf=r size=8 type=uq align=4 words (r8.0)
//.declare V0036 (44)  rf=r size=32 type=d alias=+0 align=16 words (r3.0)
//.declare V0037 (45)  rf=r size=32 type=d align=16 words (r7.0)
//.declare V0038 (46)  rf=r size=12 type=d align=2 words (r9.0)
//.declare V0039 (47)  rf=r size=32 type=w align=16 words (r1.0)
//.declare V0040 (48)  rf=r size=32 type=w align=16 words (r2.0)
//.declare V0041 (49)  rf=r size=32 type=w align=16 words (r3.0)
//.declare V0042 (50)  rf=r size=32 type=w align=16 words (r4.0)
//.declare V0043 (51)  rf=r size=32 type=w align=16 words (r5.0)
//.declare V0044 (52)  rf=r size=32 type=w align=16 words (r6.0)
//.declare V0048 (56)  rf=r size=4 type=d align=16 words (r4.0)
//.declare V0051 (59)  rf=r size=32 type=uw alias=V0039+0 align=16 words (r1.0)
//.declare V0052 (60)  rf=r size=32 type=uw alias=V0040+0 align=16 words (r2.0)
//.declare V0053 (61)  rf=r size=64 type=d align=16 words (r5.0)
//.declare V0054 (62)  rf=r size=64 type=d align=16 words (r10.0)
//.declare V0057 (65)  rf=r size=8 type=d alias=V0034+0 align=4 words (r8.0)
//.declare V0058 (66)  rf=r size=64 type=d align=16 words (r12.0)
//.declare V0059 (67)  rf=r size=64 type=d align=16 words (r14.0)
//.declare V0060 (68)  rf=r size=64 type=d align=16 words (r16.0)
//.declare V0061 (69)  rf=r size=64 type=d align=16 words (r18.0)
//.declare V0062 (70)  rf=r size=64 type=d align=16 words (r20.0)
//.declare V0063 (71)  rf=r size=64 type=d align=16 words (r22.0)
//.declare V0066 (74)  rf=r size=64 type=ud alias=V0062+0 align=16 words (r20.0)
//.declare V0067 (75)  rf=r size=64 type=ud alias=V0063+0 align=16 words (r22.0)
//.declare V0072 (80)  rf=r size=64 type=ud alias=V0060+0 align=16 words (r16.0)
//.declare V0073 (81)  rf=r size=64 type=ud alias=V0061+0 align=16 words (r18.0)
//.declare V0074 (82)  rf=r size=32 type=ud align=16 words (r24.0)
//.declare V0075 (83)  rf=r size=32 type=ud align=16 words (r25.0)
//.declare V0076 (84)  rf=r size=32 type=ud align=16 words (r26.0)
//.declare V0077 (85)  rf=r size=32 type=ud align=16 words (r27.0)
//.declare V0078 (86)  rf=r size=128 type=uq align=16 words (r28.0)
//.declare V0079 (87)  rf=r size=128 type=uq align=16 words (r32.0)
//.declare V0080 (88)  rf=r size=128 type=ud alias=V0078+0 align=16 words (r28.0)
//.declare V0081 (89)  rf=r size=128 type=ud alias=V0079+0 align=16 words (r32.0)
//.declare V0082 (90)  rf=r size=128 type=d alias=V0078+0 align=16 words (r28.0)
//.declare V0083 (91)  rf=r size=128 type=d alias=V0079+0 align=16 words (r32.0)
//.declare V0084 (92)  rf=r size=64 type=ud alias=V0058+0 align=16 words (r12.0)
//.declare V0085 (93)  rf=r size=64 type=ud alias=V0059+0 align=16 words (r14.0)
//.declare V0086 (94)  rf=r size=64 type=f align=16 words (r36.0)
//.declare V0087 (95)  rf=r size=64 type=f align=16 words (r38.0)
//.declare V0088 (96)  rf=r size=64 type=f align=16 words (r40.0)
//.declare V0089 (97)  rf=r size=64 type=f align=16 words (r42.0)
//.declare V0090 (98)  rf=r size=64 type=ud align=16 words (r44.0)
//.declare V0091 (99)  rf=r size=64 type=ud alias=V0088+0 align=16 words (r40.0)
//.declare V0092 (100)  rf=r size=64 type=ud alias=V0089+0 align=16 words (r42.0)
//.declare V0093 (101)  rf=r size=64 type=ud align=16 words (r46.0)
//.declare V0094 (102)  rf=r size=8 type=uq align=4 words (r8.1)
//.declare V0095 (103)  rf=r size=8 type=uq align=4 words (r8.2)
//.declare  (104)  rf=r size=32 type=ud align=16 words (r127.0)
//.declare  (105)  rf=r size=32 type=ud align=16 words (r48.0)
//.declare  (106)  rf=r size=32 type=ud align=16 words (r0.0)
//.declare  (107)  rf=r size=32 type=ud align=16 words (r127.0)
//.declare  (108)  rf=r size=32 type=ud align=16 words (r1.0)
//.declare  (109)  rf=r size=32 type=ud align=16 words (r7.0)
//.declare  (110)  rf=r size=128 type=ud align=16 words (r1.0)
//.declare  (111)  rf=r size=64 type=ud align=16 words (r5.0)
//.declare  (112)  rf=r size=64 type=ud align=16 words (r8.0)

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
// | V0034    | :uq      |      8 | r8       | general    |
// | V0094    | :uq      |      8 | r8+8     | general    |
// | V0095    | :uq      |      8 | r8+16    | general    |
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
(W)     send.dc0 (8|M0)          r1       r127    null:0  0x0            0x024844FD           {A@1,$0} // wr:1h+0, rd:4; oword aligned block read x8 // $33
(W)     add (1|M0)               r127.2<1>:ud  r127.2<0;1,0>:ud  0x80:uw              {$0.src}       // 
(W)     send.dc0 (8|M0)          r5       r127    null:0  0x0            0x022843FD           {A@1,$1} // wr:1h+0, rd:2; oword aligned block read x4 // $33
        nop                                                                                          // 
        nop                                                                                          // 
        nop                                                                                          // 
// B001: Preds:{B000},  Succs:{B002}
// cross_thread_prolog:
(W)     mov (8|M0)               r127.0<1>:ud  0x0:ud                              {$1.src}          // 
(W)     and (1|M0)               r127.2<1>:ud  r0.0<0;1,0>:ud    0xFFFFFFC0:ud                       // 
(W)     send.dc0 (8|M0)          r8       r127    null:0  0x0            0x022843FD           {A@1,$2} // wr:1h+0, rd:2; oword aligned block read x4 // $33
// B002: Preds:{B001},  Succs:{}
// _main:
(W)     mov (8|M0)               r3.0<1>:ud    r0.0<1;1,0>:ud                   {$0.dst}             // $1
(W)     or (1|M0)                cr0.0<1>:ud   cr0.0<0;1,0>:ud   0x4C0:uw              {A@1}         // $1
        sync.nop                             null                             {Compacted,A@1}        // $2
        sync.nop                             null                             {Compacted,$2.dst}     // $2
(W)     mul (1|M0)               acc0.0<1>:d   r9.0<0;1,0>:d     r3.2<0;1,0>:uw   {Compacted,A@1}    // $2
(W)     mach (1|M0)              r4.0<1>:d     r9.0<0;1,0>:d     r3.1<0;1,0>:d    {Compacted}        // $5
(W)     mov (8|M0)               r127.0<1>:f   r3.0<1;1,0>:f                    {Compacted}          // $33
        sync.nop                             null                             {Compacted,$1.dst}     // $5
        add3 (16|M0)             r5.0<1>:d     r4.0<0;0>:d       r1.0<1;0>:uw      r7.0<0>:d        {I@1} // $5
        shl (16|M0)              r12.0<1>:d    r5.0<1;1,0>:d     2:w               {Compacted,I@1}   // $9
        add3 (16|M16)            r10.0<1>:d    r4.0<0;0>:d       r2.0<1;0>:uw      r7.0<0>:d         // $6
        and (16|M0)              r16.0<1>:d    r12.0<1;1,0>:d    12:w               {Compacted,I@2}  // $11
        shl (16|M16)             r14.0<1>:d    r10.0<1;1,0>:d    2:w               {Compacted,I@2}   // $10
        addc (8|M0)              r20.0<1>:ud   r8.0<0;1,0>:ud    r16.0<1;1,0>:ud  {AccWrEn,Compacted,I@2} // $13
        load.ugm.d32.a32.ca.ca (16|M0)  r36:2   bti[1][r12:2]      {$3} // ex_desc:0x1000000; desc:0x64280500 // $25
        load.ugm.d32.a32.ca.ca (16|M16)  r38:2  bti[1][r14:2]      {A@2,$4} // ex_desc:0x1000000; desc:0x64280500 // $26
        and (16|M16)             r18.0<1>:d    r14.0<1;1,0>:d    12:w               {Compacted}      // $12
        mov (8|M0)               r24.0<1>:ud   acc0.0<1;1,0>:ud                 {Compacted}          // $13
        addc (8|M8)              r21.0<1>:ud   r8.0<0;1,0>:ud    r17.0<1;1,0>:ud  {AccWrEn}          // $15
        add (8|M0)               r28.1<2>:ud   r24.0<1;1,0>:ud   r8.1<0;1,0>:ud   {I@2}              // $14
        mov (8|M8)               r25.0<1>:ud   acc0.0<1;1,0>:ud                 {Compacted}          // $15
        addc (8|M16)             r22.0<1>:ud   r8.0<0;1,0>:ud    r18.0<1;1,0>:ud  {AccWrEn}          // $17
        mov (8|M0)               r28.0<2>:d    r20.0<1;1,0>:d                                        // $21
        mov (8|M16)              r26.0<1>:ud   acc0.0<1;1,0>:ud                 {Compacted}          // $17
        addc (8|M24)             r23.0<1>:ud   r8.0<0;1,0>:ud    r19.0<1;1,0>:ud  {AccWrEn}          // $19
        add (8|M8)               r30.1<2>:ud   r25.0<1;1,0>:ud   r8.1<0;1,0>:ud   {I@5}              // $16
        mov (8|M24)              r27.0<1>:ud   acc0.0<1;1,0>:ud                 {Compacted}          // $19
        add (8|M16)              r32.1<2>:ud   r26.0<1;1,0>:ud   r8.1<0;1,0>:ud   {I@4}              // $18
        mov (8|M8)               r30.0<2>:d    r21.0<1;1,0>:d                                        // $21
        add (8|M24)              r34.1<2>:ud   r27.0<1;1,0>:ud   r8.1<0;1,0>:ud   {I@3}              // $20
        mov (8|M16)              r32.0<2>:d    r22.0<1;1,0>:d                                        // $23
        mov (8|M24)              r34.0<2>:d    r23.0<1;1,0>:d                                        // $23
        atomic_fadd.ugm.d32.a64 (16|M0)  r44:2  [r28:4]           r36:2              {A@4,$3} // ex_desc:0x0; desc:0x8200593 // $27
        atomic_fadd.ugm.d32.a64 (16|M16)  r46:2 [r32:4]           r38:2              {A@1,$4} // ex_desc:0x0; desc:0x8200593 // $29
        mov (16|M0)              r40.0<1>:f    r44.0<1;1,0>:f                   {Compacted,$3.dst}   // $28
        mov (16|M16)             r42.0<1>:f    r46.0<1;1,0>:f                   {Compacted,$4.dst}   // $30
        store.ugm.d32.a32.wb.wb (16|M0)  bti[2][r12:2] r40:2       {A@2,$5} // ex_desc:0x2000000; desc:0x640E0504 // $31
        store.ugm.d32.a32.wb.wb (16|M16)  bti[2][r14:2] r42:2      {A@1,$6} // ex_desc:0x2000000; desc:0x640E0504 // $32
(W)     send.ugm (1|M0)          r48      r3      null:0  0x0            0x0210651F           {$7} // wr:1+0, rd:1; fence invalid flush type scoped to tile // $33
(W)     mov (8|M0)               null<1>:ud    r48.0<1;1,0>:ud                  {$7.dst}             //  memory fence commit; $33
(W)     send.gtwy (8|M0)         null     r127    null:0  0x0            0x02000010           {EOT,A@1} // wr:1+0, rd:0; end of thread // $33
L760:
        nop                                                                                          // $33


//.BankConflicts: 0
//.BankConflicts.SameBank: 0
//.BankConflicts.TwoSrc: 0
//.SIMD16ReadSuppressions: 0
//.SIMD8s: 73
//
//.RMWs: 0
//
//.accSubDef: 0
//.accSubUse: 0
//.accSubCandidateDef: 0
//.accSubCandidateUse: 0
