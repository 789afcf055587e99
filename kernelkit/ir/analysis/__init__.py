"""Analyses over `kernelkit.ir` shared by every target that needs them, one concern per module:

- `cfg`: successors, predecessors, reachability, reverse post-order of a function's blocks;
- `dominators`: dominator and post-dominator trees, dominance frontiers;
- `loops`: the natural-loop forest (header, latches, blocks, exits, nesting) and reducibility;
- `uniformity`: which values and branches differ between the work-items of a SIMD packet
  (data dependence, divergent-branch/sync dependence, divergent loop exits);
- `strides`: how a value changes from one work-item to the next (uniform, linear stride, varying).

Analyses compute once from the IR as it is; after editing the function, compute them again.
"""

from kernelkit.ir.analysis.cfg import CFG, reverse_post_order
from kernelkit.ir.analysis.dominators import DominatorTree, PostDominatorTree, dominance_frontiers
from kernelkit.ir.analysis.loops import Loop, LoopForest
from kernelkit.ir.analysis.strides import Stride, StrideAnalysis
from kernelkit.ir.analysis.uniformity import UniformityAnalysis, WorkItemRoots

__all__ = ["CFG", "DominatorTree", "Loop", "LoopForest", "PostDominatorTree", "Stride", "StrideAnalysis",
           "UniformityAnalysis", "WorkItemRoots", "dominance_frontiers", "reverse_post_order"]
