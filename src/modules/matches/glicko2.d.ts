// Types of the glicko2 package (npm glicko2, mmai/glicko2js), which ships none: the part rating.ts uses.
declare module 'glicko2' {
  export interface Player {
    getRating(): number
    getRd(): number
    getVol(): number
  }
  export type Outcome = 0 | 0.5 | 1
  export class Glicko2 {
    constructor(settings?: { tau?: number; rating?: number; rd?: number; vol?: number })
    makePlayer(rating?: number, rd?: number, vol?: number): Player
    updateRatings(matches: Array<[Player, Player, Outcome]>): void
  }
  const glicko2: { Glicko2: typeof Glicko2 }
  export default glicko2
}
