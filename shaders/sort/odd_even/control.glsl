// The odd_even control block in the temporary buffer: the merge-split rounds' indirect dispatch
// arguments, what the current round changed and who has voted, and how many rounds ran.
#ifndef VKC_ODD_EVEN_CONTROL_GLSL
#define VKC_ODD_EVEN_CONTROL_GLSL

#define VKC_ODD_EVEN_CONTROL(binding_index)                                                      \
  layout(std430, binding = binding_index) restrict buffer Control {                               \
    uvec3 args;      /* VkDispatchIndirectCommand of every merge-split round; x = 0 stops them */ \
    uint changed;    /* pairs the current round merged (it changes nothing when 0) */             \
    uint done;       /* workgroups of the current round that have voted */                         \
    uint unused[2];                                                                              \
    uint rounds;     /* merge-split rounds that ran (the last word: src/sort/odd_even.hpp) */      \
  } control;

#endif
