import { render } from 'preact'
import { App } from './app.tsx'
import { registerServiceWorker } from './offline.ts'
import './styles.css'

render(<App />, document.getElementById('app')!)
registerServiceWorker()
