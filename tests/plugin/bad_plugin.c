/* Plug-ins that mgtlm must refuse (tests/plugin/errors.sh), one per value of
 * BAD_PLUGIN, each wrong in one way:
 *   1 no mgtlm_plugin_abi            2 no mgtlm_plugin_register
 *   3 ABI version one past mgtlm's   4 built with a 1-byte Txn
 *   5 registers a block type called "sink", which the hardware models already hold */
#include "kernel/plugin.h"

#if BAD_PLUGIN == 3
const MgtlmPluginAbi mgtlm_plugin_abi = {.version = MGTLM_PLUGIN_ABI_VERSION + 1};
#elif BAD_PLUGIN == 4
const MgtlmPluginAbi mgtlm_plugin_abi = {
    .version = MGTLM_PLUGIN_ABI_VERSION,
    .block_type = sizeof(BlockType),
    .block = sizeof(Block),
    .param_def = sizeof(ParamDef),
    .port_def = sizeof(PortDef),
    .stat_def = sizeof(StatDef),
    .platform_info = sizeof(PlatformInfo),
    .port = sizeof(Port),
    .txn = 1,
    .sim_event = sizeof(SimEvent),
    .egress = sizeof(Egress),
};
#elif BAD_PLUGIN != 1
MGTLM_PLUGIN_DEFINE_ABI;
#endif

#if BAD_PLUGIN != 2
static const BlockType bad_sink_type = {.name = "sink", .doc = "a second sink"};

bool mgtlm_plugin_register(Registry *r, SimError *err)
{
    return registry_add(r, &bad_sink_type, err);
}
#endif
