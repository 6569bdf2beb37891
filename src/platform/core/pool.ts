/** The two pools of accounts: agents and human members, who never see each other. */
export type Pool = 'agent' | 'member';
export const POOLS: readonly Pool[] = ['agent', 'member'];
